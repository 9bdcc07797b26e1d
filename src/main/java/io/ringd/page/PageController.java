package io.ringd.page;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

import io.ringd.web.RingPaths;
import io.swagger.v3.oas.annotations.Hidden;

/**
 * {@code GET /}: the page itself, {@code page/index.html} of the jar; served at {@code /rings/{name}/}
 * too, as that ring's page (docs/ring.md section 22), and with 404 for a ring that does not exist,
 * where the page says so.
 */
@Controller
@Hidden
class PageController {

    private static final Resource INDEX = new ClassPathResource("page/index.html");

    @GetMapping(path = "/", produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<Resource> index(HttpServletRequest request) {
        HttpStatus status = request.getAttribute(RingPaths.MISSING) != null ? HttpStatus.NOT_FOUND : HttpStatus.OK;
        return ResponseEntity.status(status).contentType(new MediaType(MediaType.TEXT_HTML, java.nio.charset.StandardCharsets.UTF_8))
                .body(INDEX);
    }
}
