package com.chatreview.chatui;

import java.time.Instant;

/** A minted embed token: the page's credential for one chat until it expires. */
public record EmbedToken(String token, Instant expiresAt) {}
