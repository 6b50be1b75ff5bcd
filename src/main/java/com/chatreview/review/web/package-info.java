@org.jspecify.annotations.NullMarked
package com.chatreview.review.web;
