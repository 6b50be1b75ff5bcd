package com.chatreview.chatui.web;

import com.chatreview.chatui.ChatUi;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletRequest;
import java.util.regex.Pattern;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The page behind {@code chatIframeUrl}: {@code /chat/?chat_id=<id>} (and {@code /chat?chat_id=}). The HTML is one
 * static file; what varies per chat is the header: the tenant's {@code frame-ancestors}. Its scripts and styles are
 * static files of the service ({@code /chat/assets/}, {@code /webjars/}); the policy lets nothing else load.
 */
@Controller
@Hidden
class ChatPageController {

    private static final Resource PAGE = new ClassPathResource("chat-ui/index.html");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.\\-\\[\\]:]{1,255}");

    private final ChatUi ui;

    ChatPageController(ChatUi ui) {
        this.ui = ui;
    }

    @GetMapping({"/chat", "/chat/"})
    ResponseEntity<Resource> page(
            @RequestParam(name = "chat_id", required = false) String chatId, HttpServletRequest request) {
        return ResponseEntity.ok()
                .contentType(new MediaType(MediaType.TEXT_HTML, java.nio.charset.StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noStore())
                .header("Content-Security-Policy", policy(ui.frameAncestors(chatId), request))
                .header("Referrer-Policy", "no-referrer")
                .header("X-Content-Type-Options", "nosniff")
                .body(PAGE);
    }

    /**
     * Scripts, styles and connections from the service only; no inline script or style; no plugin, form or base.
     * {@code connect-src 'self'} covers the same host's {@code ws:}/{@code wss:} in CSP 3 browsers; the explicit
     * WebSocket sources are for older ones.
     */
    private static String policy(String frameAncestors, HttpServletRequest request) {
        String host = request.getHeader("Host");
        String sockets = host != null && HOST.matcher(host).matches() ? " ws://" + host + " wss://" + host : "";
        return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self';"
                + " connect-src 'self'" + sockets + "; base-uri 'none'; form-action 'none'; object-src 'none';"
                + " frame-ancestors " + frameAncestors;
    }
}
