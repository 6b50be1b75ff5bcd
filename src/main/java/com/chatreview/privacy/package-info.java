/**
 * Students' data (docs/privacy.md): what the service keeps of a tenant's user, in one list
 * ({@link com.chatreview.privacy.PersonalData}), that the export of a user's data and its erasure follow.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Privacy")
package com.chatreview.privacy;
