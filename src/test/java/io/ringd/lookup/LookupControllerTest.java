package io.ringd.lookup;

import static org.hamcrest.Matchers.contains;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.state.RingService;
import io.ringd.web.WebSliceConfiguration;

@WebMvcTest(controllers = LookupController.class, properties = {
        "ringd.admin.token=" + WebSliceConfiguration.TOKEN, "ringd.data-dir=target/slice-test-data"})
@Import(WebSliceConfiguration.class)
class LookupControllerTest {

    @Autowired
    MockMvc mvc;

    @Autowired
    RingService ring;

    @BeforeEach
    void nodes() {
        if (ring.current().nodes().isEmpty()) {
            ring.apply(List.of(Change.put(new Node("a", 1, "z1")), Change.put(new Node("b", 1, "z1")),
                    Change.put(new Node("c", 1, "z2"))), null);
        }
    }

    @Test
    void route_answersTheLibrarysOwner_withVersionHeader() throws Exception {
        HashRing r = ring.current().ring();
        mvc.perform(get("/route/{key}", "user:42")).andExpect(status().isOk())
                .andExpect(header().string("X-Ring-Version", Long.toString(r.version())))
                .andExpect(jsonPath("$.key").value("user:42"))
                .andExpect(jsonPath("$.node").value(r.route("user:42")))
                .andExpect(jsonPath("$.hash").value(r.hash("user:42")))
                .andExpect(jsonPath("$.version").value(r.version()));
    }

    @Test
    void preference_defaultsToThree_andZonesFirstWhenAsked() throws Exception {
        HashRing r = ring.current().ring();
        mvc.perform(get("/preference/{key}", "k1")).andExpect(status().isOk())
                .andExpect(jsonPath("$.nodes").value(contains(r.preference("k1", 3).toArray())));
        mvc.perform(get("/preference/{key}", "k1").param("n", "2").param("distinctZones", "true"))
                .andExpect(jsonPath("$.nodes").value(contains(r.preference("k1", 2, true).toArray())));
    }

    @Test
    void preference_refusesNOutOfRange() throws Exception {
        for (String n : List.of("0", "10001", "-1")) {
            mvc.perform(get("/preference/{key}", "k1").param("n", n)).andExpect(status().isBadRequest())
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                    .andExpect(jsonPath("$.field").value("n"));
        }
        mvc.perform(get("/preference/{key}", "k1").param("n", "three")).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("n"));
    }

    @Test
    void batch_keepsRequestOrder() throws Exception {
        HashRing r = ring.current().ring();
        mvc.perform(post("/route").contentType(MediaType.APPLICATION_JSON).content("{\"keys\":[\"z\",\"a\",\"m\"]}"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.routes[*].key").value(contains("z", "a", "m")))
                .andExpect(jsonPath("$.routes[0].node").value(r.route("z")))
                .andExpect(jsonPath("$.routes[2].node").value(r.route("m")));
    }

    @Test
    void batch_refusesNonStringKeysNamingTheElement() throws Exception {
        mvc.perform(post("/route").contentType(MediaType.APPLICATION_JSON).content("{\"keys\":[\"a\",7]}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.field").value("keys[1]"));
        mvc.perform(post("/route").contentType(MediaType.APPLICATION_JSON).content("{\"keys\":[\"\"]}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.field").value("keys[0]"));
        mvc.perform(post("/route").contentType(MediaType.APPLICATION_JSON).content("{\"key\":[\"a\"]}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.field").value("key"));
    }

    @Test
    void boundedRoute_withoutLoads_answersThePrimary_andRefusesABadBound() throws Exception {
        // no load feature in this slice: every load is 0, so the primary is within any bound
        HashRing r = ring.current().ring();
        mvc.perform(get("/route/{key}", "user:42").param("bound", "1.25")).andExpect(status().isOk())
                .andExpect(jsonPath("$.node").value(r.route("user:42")))
                .andExpect(jsonPath("$.skipped").value(0));
        mvc.perform(get("/route").param("key", "user:42").param("bound", "2")).andExpect(status().isOk())
                .andExpect(jsonPath("$.skipped").value(0));
        mvc.perform(get("/route/{key}", "user:42")).andExpect(status().isOk())
                .andExpect(jsonPath("$.skipped").doesNotExist());
        for (String bound : List.of("1", "10.01", "x", "")) {
            mvc.perform(get("/route/{key}", "user:42").param("bound", bound)).andExpect(status().isBadRequest())
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                    .andExpect(jsonPath("$.field").value("bound"));
        }
    }
}
