/**
 * What the service sends out on a tenant's word (webhook deliveries, an LMS's scores): where it may connect (https
 * and public addresses only, unless the operator allows http or private networks; checked at registration and on
 * every connection), the one worker that sends what an outbox table recorded (claims, in-flight caps, wake-ups), and
 * the receiver's {@code Retry-After}.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Outbound: destinations and the outbox worker")
package com.chatreview.outbound;
