package com.chatreview.chatui;

import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatEntry;
import com.chatreview.kernel.ServiceError;
import com.chatreview.realtime.Admission;
import com.chatreview.realtime.Admission.Reason;
import com.chatreview.realtime.ChatAccess;
import com.chatreview.realtime.ConnectionRequest;
import com.chatreview.tenancy.Authenticator;
import com.chatreview.tenancy.TenantId;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * {@code /ws/chat-ui}: the chat page's WebSocket. The chat id is the credential (or the chat id and an embed token,
 * when the tenant requires one); the connection acts as the chat's owner, and speaks exactly the events of
 * {@code /ws/chat}. When the tenant lists allowed origins, a browser connection from any other origin than the
 * page's own is refused.
 */
@Component
class ChatUiAccess implements ChatAccess {

    static final String PATH = "/ws/chat-ui";

    private final ChatUi ui;
    private final Authenticator authenticator;

    ChatUiAccess(ChatUi ui, Authenticator authenticator) {
        this.ui = ui;
        this.authenticator = authenticator;
    }

    @Override
    public String path() {
        return PATH;
    }

    @Override
    public Admission admit(ConnectionRequest request) {
        // the chat's link is a credential: guessing links spends the address's budget of failures, as keys do
        // past the address's failures, a guess is refused as one (a bounded look-up at most): the budget refuses
        // guesses, never a link valid anywhere in the cluster
        Duration wait = authenticator.throttled(request.clientAddress());
        if (wait != null
                && !ui.heardWhileThrottled(
                        request.value("X-Chat-ID", "chat_id"),
                        request.value("X-Embed-Token", "token"),
                        request.clientAddress())) {
            return Admission.throttled(wait);
        }
        if (request.undecodable("X-Chat-ID", "chat_id")) {
            return new Admission.Refused(
                    Reason.CHAT_NOT_FOUND,
                    "chat_id is not valid percent-encoded UTF-8",
                    "Open the chat with the link you were given, unchanged.");
        }
        if (request.undecodable("X-Embed-Token", "token")) {
            return new Admission.Refused(
                    Reason.UNAUTHORIZED,
                    "token is not valid percent-encoded UTF-8",
                    "Open the chat with the link you were given, unchanged.");
        }
        String chatId = request.value("X-Chat-ID", "chat_id");
        if (chatId == null) {
            return new Admission.Refused(
                    Reason.UNAUTHORIZED,
                    "chat_id is missing",
                    "Open the chat with the link you were given: it holds ?chat_id=<id>.");
        }
        Optional<ChatEntry> found = ui.enterByLink(chatId);
        if (found.isEmpty()) {
            authenticator.failed(request.clientAddress());
            if (wait != null) {
                return Admission.throttled(wait);
            }
            return new Admission.Refused(
                    Reason.CHAT_NOT_FOUND,
                    "No chat with id '" + chatId + "'",
                    "Check the link: the chat may have been deleted.");
        }
        Chat chat = found.get().chat();
        TenantId tenant = chat.tenantId();
        EmbedPolicy policy = ui.policy(tenant);
        String origin = request.origin();
        if (!originAllowed(policy, origin, request)) {
            return new Admission.Refused(
                    Reason.ORIGIN_NOT_ALLOWED, "The origin '" + origin + "' may not open this chat", null);
        }
        Optional<Instant> validUntil;
        try {
            validUntil = ui.checkToken(chat, policy, request.value("X-Embed-Token", "token"));
        } catch (ServiceError refused) {
            authenticator.failed(request.clientAddress());
            if (wait != null) {
                return Admission.throttled(wait);
            }
            return new Admission.Refused(
                    Reason.UNAUTHORIZED,
                    Objects.requireNonNull(refused.getMessage(), "a ServiceError is made with its detail"),
                    refused.fix());
        }
        ui.opened(chat);
        return new Admission.Admitted(
                tenant,
                null,
                chat.userId(),
                chat.id(),
                validUntil.orElse(null),
                found.get().latestEventSeq(),
                false);
    }

    /**
     * Any origin when the tenant lists none; otherwise the page's own origin (the request's host, or
     * {@code CHAT_UI_URL}'s) and the listed ones. A client that sends no {@code Origin} is not a browser page, and
     * an origin check would not stop it: it is let through to the chat id (and token) check.
     */
    private boolean originAllowed(EmbedPolicy policy, @Nullable String origin, ConnectionRequest request) {
        if (policy.allowedOrigins() == null || origin == null) {
            return true;
        }
        String normal = origin.strip().toLowerCase(Locale.ROOT);
        if (policy.allowedOrigins().contains(normal)) {
            return true;
        }
        String authority = authority(normal);
        if (authority == null) {
            return false;
        }
        String host = request.headers().getFirst("Host");
        String forwardedHost = request.headers().getFirst("X-Forwarded-Host");
        return authority.equalsIgnoreCase(host == null ? "" : host.strip())
                || authority.equalsIgnoreCase(forwardedHost == null ? "" : forwardedHost.strip())
                || ui.configuredUrl()
                        .map(ChatUiAccess::originOf)
                        .filter(normal::equals)
                        .isPresent();
    }

    private static @Nullable String authority(String origin) {
        try {
            return URI.create(origin).getRawAuthority();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String originOf(String url) {
        try {
            URI uri = URI.create(url);
            return (uri.getScheme() + "://" + uri.getRawAuthority()).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
