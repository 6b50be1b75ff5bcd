package com.chatreview.webhook;

import java.util.List;

/** What a tenant changes of an endpoint; a null field is left as it is. */
public record EndpointChanges(String url, List<EventType> eventTypes, String description, Boolean enabled) {}
