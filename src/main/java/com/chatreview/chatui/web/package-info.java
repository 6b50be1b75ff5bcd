@org.jspecify.annotations.NullMarked
package com.chatreview.chatui.web;
