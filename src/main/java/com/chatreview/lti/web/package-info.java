/** The LTI tool's HTTP adapters: the platforms API, and the tool's own endpoints and pages under {@code /lti}. */
@org.jspecify.annotations.NullMarked
package com.chatreview.lti.web;
