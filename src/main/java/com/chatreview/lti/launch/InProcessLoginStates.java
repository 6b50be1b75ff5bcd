package com.chatreview.lti.launch;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Optional;

/** The logins of a single node: each gone after its timeout; bounded (past the bound, Caffeine drops some). */
final class InProcessLoginStates implements LoginStates {

    private final Cache<String, LoginState> logins;

    InProcessLoginStates(Duration timeout, int capacity) {
        this.logins = Caffeine.newBuilder()
                .expireAfterWrite(timeout)
                .maximumSize(capacity)
                .build();
    }

    @Override
    public void put(String state, LoginState login, Duration timeout) {
        logins.put(state, login);
    }

    @Override
    public Optional<LoginState> take(String state) {
        return Optional.ofNullable(logins.asMap().remove(state));
    }
}
