/**
 * Shared HTTP concerns only: the one place errors become RFC 9457 problem bodies (and each error code's status),
 * request ids, body limits and the JSON conventions of the interface.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(
        displayName = "Web",
        type = org.springframework.modulith.ApplicationModule.Type.OPEN)
package com.chatreview.web;
