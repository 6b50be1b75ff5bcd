package com.chatreview.realtime;

import com.chatreview.chat.ChatEntry;
import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.kernel.Ids;
import com.chatreview.realtime.Admission.Reason;
import com.chatreview.tenancy.Authenticator;
import com.chatreview.tenancy.Tenant;
import java.util.Optional;
import org.springframework.stereotype.Component;

/** {@code /ws/chat}: the tenant's API key, the user it acts for, and a chat of that tenant (docs/api.md, The WebSocket). */
@Component
class ApiKeyAccess implements ChatAccess {

    private final Authenticator authenticator;
    private final ChatManagement chats;

    ApiKeyAccess(Authenticator authenticator, ChatManagement chats) {
        this.authenticator = authenticator;
        this.chats = chats;
    }

    @Override
    public String path() {
        return "/ws/chat";
    }

    /** As on REST (decisions: lengths): at most 255 characters; U+0000 no PostgreSQL text can hold. */
    private static final int MAX_USER_ID = 255;

    @Override
    public Admission admit(ConnectionRequest request) {
        if (request.undecodable("X-API-Key", "api_key") || request.undecodable("X-User-ID", "user_id")) {
            return Admission.refused(Reason.UNAUTHORIZED, "api_key or user_id is not valid percent-encoded UTF-8");
        }
        if (request.undecodable("X-Chat-ID", "chat_id")) {
            return Admission.refused(Reason.CHAT_NOT_FOUND, "chat_id is not valid percent-encoded UTF-8");
        }
        String apiKey = request.value("X-API-Key", "api_key");
        String userId = request.value("X-User-ID", "user_id");
        String chatId = request.value("X-Chat-ID", "chat_id");
        Tenant tenant;
        switch (authenticator.apiKey(apiKey, request.clientAddress())) {
            case Authenticator.Result.Authenticated authenticated -> tenant = authenticated.tenant();
            case Authenticator.Result.Throttled throttled -> {
                return Admission.throttled(throttled.retryAfter());
            }
            case Authenticator.Result.Missing missing -> {
                return missing("api_key (or the X-API-Key header)");
            }
            case Authenticator.Result.Invalid invalid -> {
                return Admission.refused(Reason.UNAUTHORIZED, "The API key is not valid");
            }
        }
        if (userId == null) {
            return missing("user_id (or the X-User-ID header)");
        }
        if (chatId == null) {
            return missing("chat_id (or the X-Chat-ID header)");
        }
        if (userId.length() > MAX_USER_ID || userId.indexOf('\u0000') >= 0) {
            return Admission.refused(
                    Reason.UNAUTHORIZED, "user_id must be 1 to " + MAX_USER_ID + " characters without U+0000");
        }
        // the chat, its latest seq and the user, if new, in one round trip: a storm of handshakes costs one each
        Optional<ChatEntry> entry = Ids.uuid(chatId).flatMap(id -> chats.enter(tenant.id(), ChatId.of(id), userId));
        if (entry.isEmpty()) {
            return Admission.refused(Reason.CHAT_NOT_FOUND, "No chat with id '" + chatId + "'");
        }
        return Admission.admitted(tenant.id(), tenant.apiKeyId(), userId, entry.get());
    }

    private static Admission missing(String what) {
        return Admission.refused(Reason.UNAUTHORIZED, what + " is missing");
    }
}
