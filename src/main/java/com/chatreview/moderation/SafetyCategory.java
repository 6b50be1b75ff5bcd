package com.chatreview.moderation;

import java.sql.Array;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** What a screened text may be about, with how grave a flag of it is unless a rule says otherwise. */
public enum SafetyCategory {
    /** The writer's own intent, plan or wish to hurt or kill themselves. */
    SELF_HARM(Severity.HIGH),
    /** Threats or intent to hurt others, weapons at school. */
    VIOLENCE(Severity.HIGH),
    /** Sexual content involving minors, grooming. */
    SEXUAL_MINORS(Severity.HIGH),
    /** Bullying or harassment of a person. */
    HARASSMENT(Severity.MEDIUM),
    /** A phone number, home address or e-mail address shared. */
    CONTACT_DETAILS(Severity.LOW);

    private final Severity severity;

    SafetyCategory(Severity severity) {
        this.severity = severity;
    }

    public Severity severity() {
        return severity;
    }

    /** As the API writes it: {@code self_harm}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The categories a {@code text[]} column names; a name this version does not know is left out. */
    static Set<SafetyCategory> of(Array names) throws SQLException {
        Set<SafetyCategory> categories = EnumSet.noneOf(SafetyCategory.class);
        for (Object name : (Object[]) names.getArray()) {
            of((String) name).ifPresent(categories::add);
        }
        return categories;
    }

    public static Optional<SafetyCategory> of(String value) {
        return Arrays.stream(values())
                .filter(category -> category.value().equals(value))
                .findFirst();
    }
}
