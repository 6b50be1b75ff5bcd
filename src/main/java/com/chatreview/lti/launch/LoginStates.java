package com.chatreview.lti.launch;

import java.time.Duration;
import java.util.Optional;

/**
 * The logins waiting for their launch, by {@code state}: kept server-side, so that the LMS's iframe needs no cookie,
 * and taken once, so that a launch cannot be replayed. In-process on one node; in Redis in a cluster, where the
 * launch may reach another node than the login.
 */
interface LoginStates {

    void put(String state, LoginState login, Duration timeout);

    /** The login, removed: a second take of the same state finds nothing. */
    Optional<LoginState> take(String state);
}
