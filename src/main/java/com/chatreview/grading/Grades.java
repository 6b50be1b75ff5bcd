package com.chatreview.grading;

/** The letter a share of the rubric's points earns: A from 90 %, B 80, C 70, D 60, E 50, F below. */
public final class Grades {

    /** The lowest percentage of each letter A to E; below the last is F. */
    static final int[] BANDS = {90, 80, 70, 60, 50};

    static final String LETTERS = "ABCDEF";

    private Grades() {}

    /** The letter of {@code points} out of {@code total}; the percentage is not rounded up into a better band. */
    public static String letter(int points, int total) {
        if (total <= 0) {
            throw new IllegalArgumentException("a rubric's total is positive, not " + total);
        }
        for (int i = 0; i < BANDS.length; i++) {
            if (points * 100L >= (long) BANDS[i] * total) {
                return String.valueOf(LETTERS.charAt(i));
            }
        }
        return "F";
    }

    /** The percentage, rounded down, that the letter was decided on. */
    public static int percent(int points, int total) {
        return (int) (points * 100L / total);
    }
}
