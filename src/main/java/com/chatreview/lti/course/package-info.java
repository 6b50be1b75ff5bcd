/** What a launch opens: the learner's homework page, the teacher's class view, and the people seen in launches. */
@org.jspecify.annotations.NullMarked
package com.chatreview.lti.course;
