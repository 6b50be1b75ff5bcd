/**
 * The teacher's side of homework: courses, assignments and their task, solution and restriction files, and
 * the assignment list with its filters and search.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Homework")
package com.chatreview.homework;
