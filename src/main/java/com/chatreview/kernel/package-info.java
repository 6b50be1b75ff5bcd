/**
 * The shared kernel: the few types every module speaks in and that belong to no one capability: a page of a list,
 * what is wrong with a field of a request, {@link com.chatreview.kernel.ServiceError}, the failure a client can act
 * on, with its code, and the rules for text any module reads from a client: ids ({@code Ids}), file names
 * ({@code FileNames}), text PostgreSQL can store ({@code StorableText}). Depends on nothing, knows no HTTP: the
 * {@code web} module gives each code its status, and {@code conversation} its WebSocket error.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Kernel")
package com.chatreview.kernel;
