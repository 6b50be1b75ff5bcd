package com.chatreview.lti;

/**
 * A login or launch the tool does not go on with, and why, in words for the person in front of the LMS (the page
 * they see says it; nothing else is shown). {@code unavailable} ones are the service's, worth another try.
 */
public final class LaunchRefused extends RuntimeException {

    private final boolean unavailable;
    private final String reason;

    private LaunchRefused(String reason, boolean unavailable) {
        super(reason, null, false, false);
        this.unavailable = unavailable;
        this.reason = reason;
    }

    static LaunchRefused because(String reason) {
        return new LaunchRefused(reason, false);
    }

    static LaunchRefused unavailable(String reason) {
        return new LaunchRefused(reason, true);
    }

    /** The service could not finish now (a dependency down); the same launch may work in a moment. */
    public boolean unavailable() {
        return unavailable;
    }

    public String reason() {
        return reason;
    }
}
