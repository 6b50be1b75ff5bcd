/**
 * The shared kernel: the few types every module speaks in and that belong to no one capability, a page of a list
 * and what is wrong with a field of a request. Depends on nothing, knows no HTTP; the {@code web} module turns it
 * into responses.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Kernel")
package com.chatreview.kernel;
