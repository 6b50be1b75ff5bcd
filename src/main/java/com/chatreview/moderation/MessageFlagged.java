package com.chatreview.moderation;

import com.chatreview.tenancy.TenantId;

/** Published in the transaction that stored the message and its flag: the school is to hear of it. */
public record MessageFlagged(TenantId tenantId, Flag flag) {}
