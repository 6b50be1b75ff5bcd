package com.chatreview.lti.platform;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** A gradebook column of a course, and every score it accepted, in order. */
public final class LineItem {

    private final String id;
    private final Course course;
    private volatile String label;
    private volatile double scoreMaximum;
    private volatile @Nullable String resourceId;
    private volatile @Nullable String tag;
    private volatile @Nullable String resourceLinkId;
    private final List<Score> scores = new ArrayList<>();

    LineItem(
            String id,
            Course course,
            String label,
            double scoreMaximum,
            @Nullable String resourceId,
            @Nullable String tag,
            @Nullable String resourceLinkId) {
        this.id = id;
        this.course = course;
        this.label = label;
        this.scoreMaximum = scoreMaximum;
        this.resourceId = resourceId;
        this.tag = tag;
        this.resourceLinkId = resourceLinkId;
    }

    /** Its URL, as the AGS claim and the container give it (with Moodle's query string: scores go before it). */
    public String id() {
        return id;
    }

    public Course course() {
        return course;
    }

    public String label() {
        return label;
    }

    public double scoreMaximum() {
        return scoreMaximum;
    }

    public @Nullable String resourceId() {
        return resourceId;
    }

    public @Nullable String tag() {
        return tag;
    }

    public @Nullable String resourceLinkId() {
        return resourceLinkId;
    }

    void update(String label, double scoreMaximum, @Nullable String resourceId, @Nullable String tag) {
        this.label = label;
        this.scoreMaximum = scoreMaximum;
        this.resourceId = resourceId;
        this.tag = tag;
    }

    void linkTo(String resourceLinkId) {
        this.resourceLinkId = resourceLinkId;
    }

    /** Every score accepted, in the order accepted. */
    public synchronized List<Score> scores() {
        return List.copyOf(scores);
    }

    /** The scores accepted for one user, in order. */
    public synchronized List<Score> scoresOf(Member member) {
        return scores.stream().filter(s -> s.userId().equals(member.sub())).toList();
    }

    /** What the gradebook shows for the user: the last score accepted. */
    public synchronized Optional<Score> gradeOf(Member member) {
        List<Score> theirs = scoresOf(member);
        return theirs.isEmpty() ? Optional.empty() : Optional.of(theirs.getLast());
    }

    /**
     * Accepts a score unless one as late or later is on record for the user: Moodle answers 409 to a score whose
     * timestamp is not after the last one's, so a tool must not resend a score it already delivered as a new one.
     */
    synchronized boolean accept(Score score) {
        for (Score earlier : scores) {
            if (earlier.userId().equals(score.userId()) && !score.timestamp().isAfter(earlier.timestamp())) {
                return false;
            }
        }
        scores.add(score);
        return true;
    }
}
