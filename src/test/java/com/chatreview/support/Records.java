package com.chatreview.support;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/** A copy of a record (a module's settings, say) with one component changed. */
public final class Records {

    private Records() {}

    public static <R extends Record> R with(R record, String component, Object value) {
        RecordComponent[] components = record.getClass().getRecordComponents();
        if (Arrays.stream(components).noneMatch(candidate -> candidate.getName().equals(component))) {
            throw new IllegalArgumentException(record.getClass().getSimpleName() + " has no " + component);
        }
        try {
            Object[] values = new Object[components.length];
            Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                values[i] = components[i].getName().equals(component)
                        ? value
                        : components[i].getAccessor().invoke(record);
            }
            var constructor = record.getClass().getDeclaredConstructor(types);
            constructor.setAccessible(true);
            @SuppressWarnings("unchecked")
            R copy = (R) constructor.newInstance(values);
            return copy;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    "Copying " + record.getClass().getSimpleName(),
                    e instanceof InvocationTargetException thrown ? thrown.getCause() : e);
        }
    }
}
