/**
 * Running code the service does not trust (a student's submission with the teacher's tests) in a sandbox: a fresh
 * directory, bubblewrap's namespaces (no network, a read-only system, nothing of the service), an unprivileged user,
 * limits on time, memory, processes, files and output; everything killed and removed afterwards.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Sandbox")
package com.chatreview.sandbox;
