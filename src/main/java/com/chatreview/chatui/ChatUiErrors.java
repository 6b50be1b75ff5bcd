package com.chatreview.chatui;

import com.chatreview.kernel.ServiceError;
import java.time.Instant;

/** The failures of the chat page's API, each a fact; the WebSocket tells the same ones as {@code AUTH_ERROR}. */
public final class ChatUiErrors {

    private ChatUiErrors() {}

    static final String TOKEN_FIX = "Ask the site that showed this chat for a fresh link: its backend mints one with"
            + " POST /api/v1/chats/{chat_id}/embed-token and puts it in the page's address as &token=.";

    /** The chat's tenant requires an embed token and none came. */
    public static final class EmbedTokenRequired extends ServiceError {
        EmbedTokenRequired() {
            super(Code.EMBED_TOKEN_REQUIRED, "This chat's page needs an embed token", TOKEN_FIX);
        }
    }

    public static final class EmbedTokenInvalid extends ServiceError {
        EmbedTokenInvalid(String detail) {
            super(Code.EMBED_TOKEN_INVALID, detail, TOKEN_FIX);
        }
    }

    public static final class EmbedTokenExpired extends ServiceError {
        EmbedTokenExpired(Instant expiredAt) {
            super(Code.EMBED_TOKEN_EXPIRED, "The embed token expired at " + expiredAt, TOKEN_FIX);
        }
    }
}
