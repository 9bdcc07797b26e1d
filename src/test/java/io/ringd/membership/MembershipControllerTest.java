package io.ringd.membership;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.ringd.state.RingService;
import io.ringd.web.WebSliceConfiguration;

@WebMvcTest(controllers = MembershipController.class, properties = {
        "ringd.admin.token=" + WebSliceConfiguration.TOKEN, "ringd.data-dir=target/slice-test-data"})
@Import(WebSliceConfiguration.class)
class MembershipControllerTest {

    @Autowired
    MockMvc mvc;

    @Autowired
    RingService ring;

    static MockHttpServletRequestBuilder admin(MockHttpServletRequestBuilder b) {
        return b.header("Authorization", "Bearer " + WebSliceConfiguration.TOKEN);
    }

    @Test
    void put_isCreatedThenOk_andTheSameAgainMakesNoVersion() throws Exception {
        long v = ring.current().version();
        mvc.perform(admin(put("/nodes/{id}", "slice-a")).contentType(MediaType.APPLICATION_JSON)
                .content("{\"weight\":2,\"zone\":\"eu-1a\"}")).andExpect(status().isCreated())
                .andExpect(jsonPath("$.version").value(v + 1)).andExpect(jsonPath("$.node.zone").value("eu-1a"));
        mvc.perform(admin(put("/nodes/{id}", "slice-a")).contentType(MediaType.APPLICATION_JSON)
                .content("{\"weight\":2.0,\"zone\":\"eu-1a\"}")).andExpect(status().isOk())
                .andExpect(jsonPath("$.version").value(v + 1))
                .andExpect(header().string("X-Ring-Version", Long.toString(v + 1)));
        mvc.perform(get("/nodes/{id}", "slice-a")).andExpect(status().isOk())
                .andExpect(jsonPath("$.node.weight").value(2.0));
    }

    @Test
    void admin_withoutToken_is401_andChangesNothing() throws Exception {
        long v = ring.current().version();
        mvc.perform(put("/nodes/{id}", "slice-x").contentType(MediaType.APPLICATION_JSON).content("{\"weight\":1}"))
                .andExpect(status().isUnauthorized()).andExpect(header().exists("WWW-Authenticate"));
        mvc.perform(delete("/nodes/{id}", "slice-x").header("Authorization", "Bearer wrong-token-000000000"))
                .andExpect(status().isUnauthorized());
        mvc.perform(delete("/nodes/{id}", "slice-x").header("Authorization", "Basic abc"))
                .andExpect(status().isUnauthorized());
        org.assertj.core.api.Assertions.assertThat(ring.current().version()).isEqualTo(v);
    }

    @Test
    void badBodies_nameTheField() throws Exception {
        String[][] cases = {
            {"{\"weight\":0}", "weight"},
            {"{\"weight\":\"1\"}", "weight"},
            {"{\"weight\":1e400}", "weight"},
            {"{\"weight\":1,\"zone\":\"bad zone\"}", "zone"},
            {"{\"weight\":1,\"wieght\":2}", "wieght"},
            {"{\"zone\":\"z\"}", "weight"},
            {"{\"id\":\"other\",\"weight\":1}", "id"},
            {"[1]", null},
        };
        for (String[] c : cases) {
            var result = mvc.perform(admin(put("/nodes/{id}", "slice-b")).contentType(MediaType.APPLICATION_JSON)
                    .content(c[0])).andExpect(status().isBadRequest());
            if (c[1] != null) {
                result.andExpect(jsonPath("$.field").value(c[1]));
            }
        }
        mvc.perform(admin(post("/membership")).contentType(MediaType.APPLICATION_JSON)
                .content("{\"changes\":[{\"op\":\"put\",\"id\":\"ok\",\"weight\":1},{\"op\":\"put\",\"id\":\"ok2\","
                        + "\"weight\":-1}]}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.field").value("changes[1].weight"));
        mvc.perform(admin(post("/membership")).contentType(MediaType.APPLICATION_JSON)
                .content("{\"changes\":[{\"op\":\"move\",\"id\":\"ok\"}]}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.field").value("changes[0].op"));
    }

    @Test
    void settings_ifMatch_quotedAndBare() throws Exception {
        long v = ring.current().version();
        mvc.perform(admin(put("/settings")).header("If-Match", "\"" + (v + 7) + "\"")
                .contentType(MediaType.APPLICATION_JSON).content("{\"vnodesPerWeight\":64}"))
                .andExpect(status().isPreconditionFailed()).andExpect(jsonPath("$.field").value("If-Match"));
        mvc.perform(admin(put("/settings")).header("If-Match", "seven")
                .contentType(MediaType.APPLICATION_JSON).content("{\"vnodesPerWeight\":64}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.field").value("If-Match"));
        mvc.perform(admin(put("/settings")).header("If-Match", Long.toString(v))
                .contentType(MediaType.APPLICATION_JSON).content("{\"vnodesPerWeight\":64}"))
                .andExpect(status().isOk()).andExpect(jsonPath("$.settings.vnodesPerWeight").value(64))
                .andExpect(jsonPath("$.settings.hash").value("md5"));
        mvc.perform(admin(put("/settings")).contentType(MediaType.APPLICATION_JSON).content("{\"hash\":\"crc32\"}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.field").value("hash"));
    }
}
