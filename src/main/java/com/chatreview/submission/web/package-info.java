@org.jspecify.annotations.NullMarked
package com.chatreview.submission.web;
