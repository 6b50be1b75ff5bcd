package com.chatreview.sandbox;

/** The sandbox cannot run here (bubblewrap missing, no user namespaces): nothing is run outside it, ever. */
public final class SandboxUnavailable extends Exception {

    SandboxUnavailable(String why) {
        super(why, null, false, false);
    }
}
