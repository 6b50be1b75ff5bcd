/** Deep linking: a teacher picks a homework in the LMS and the tool answers with a signed link to it. */
@org.jspecify.annotations.NullMarked
package com.chatreview.lti.deeplinking;
