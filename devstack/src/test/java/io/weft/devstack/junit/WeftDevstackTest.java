package io.weft.devstack.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against the shared embedded devstack (one Kafka broker and one
 * PostgreSQL per test JVM, started on first use). Test methods and constructors can take a
 * {@link io.weft.devstack.DevstackEndpoints} parameter; static code (e.g. Spring's
 * {@code @DynamicPropertySource}) can call {@link DevstackExtension#endpoints()}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(DevstackExtension.class)
public @interface WeftDevstackTest {
}
