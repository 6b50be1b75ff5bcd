package com.chatreview.web;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * What the servlet container shows for a failure that never reached Spring MVC (a filter's, a container's):
 * the same problem body as everything else, never a stack trace or an HTML page.
 */
@RestController
@Hidden
class ProblemErrorPage implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer value && HttpStatus.resolve(value) != null
                ? HttpStatus.valueOf(value)
                : HttpStatus.INTERNAL_SERVER_ERROR;
        String detail =
                status.is5xxServerError() ? "The service failed to handle the request" : status.getReasonPhrase();
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(Problems.body(
                        status,
                        ProblemRendering.codeOf(status),
                        detail,
                        ProblemRendering.fixOf(status),
                        List.of(),
                        request));
    }
}
