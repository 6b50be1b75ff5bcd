package com.chatreview.webhook;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** What a tenant changes of an endpoint; a null field is left as it is. */
public record EndpointChanges(
        @Nullable String url,
        @Nullable List<EventType> eventTypes,
        @Nullable String description,
        @Nullable Boolean enabled) {}
