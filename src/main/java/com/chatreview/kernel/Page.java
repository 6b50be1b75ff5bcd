package com.chatreview.kernel;

import java.util.List;

/** One page of a list and how many items the whole list holds. */
public record Page<T>(List<T> items, long total) {}
