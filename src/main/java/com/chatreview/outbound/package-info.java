/**
 * Where the service may connect on a tenant's word (webhook endpoints, an LMS's URLs): https and public addresses
 * only, unless the operator allows http or private networks; checked at registration and on every connection.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Outbound destinations")
package com.chatreview.outbound;
