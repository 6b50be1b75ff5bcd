package com.chatreview.lti.platform;

import java.util.List;

/** A user of a course on the platform: {@code sub} is what the tool sees of them. */
public record Member(String sub, String givenName, String familyName, String email, List<String> roles) {

    public String name() {
        return givenName + " " + familyName;
    }

    public boolean learner() {
        return roles.contains(Lti.LEARNER);
    }
}
