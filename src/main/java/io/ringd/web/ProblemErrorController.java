package io.ringd.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Answers the container's error dispatches ({@code /error}) with a problem detail, never an HTML page. */
@RestController
@io.swagger.v3.oas.annotations.Hidden
class ProblemErrorController implements ErrorController {

    @RequestMapping("/error")
    ResponseEntity<Object> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i ? i : HttpStatus.INTERNAL_SERVER_ERROR.value();
        Problems type = Problems.forStatus(status);
        HttpStatus resolved = HttpStatus.resolve(status);
        String detail = resolved != null ? resolved.getReasonPhrase() : type.title();
        org.springframework.http.ProblemDetail body = type.detail(detail, null);
        body.setStatus(status);
        return ResponseEntity.status(status).contentType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON)
                .body(body);
    }
}
