/**
 * The shared kernel: the few types every module speaks in and that belong to no one capability: a page of a list,
 * what is wrong with a field of a request, and {@link com.chatreview.kernel.ServiceError}, the failure a client can
 * act on, with its code. Depends on nothing, knows no HTTP: the {@code web} module gives each code its status, and
 * {@code realtime} its WebSocket error.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Kernel")
package com.chatreview.kernel;
