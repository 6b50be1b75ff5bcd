/**
 * Shared HTTP concerns only: the one place errors become RFC 9457 problem bodies, request ids, body limits,
 * paging parameters and the JSON conventions of the interface.
 */
@org.springframework.modulith.ApplicationModule(
        displayName = "Web",
        type = org.springframework.modulith.ApplicationModule.Type.OPEN)
package com.chatreview.web;
