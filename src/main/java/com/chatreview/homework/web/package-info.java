@org.jspecify.annotations.NullMarked
package com.chatreview.homework.web;
