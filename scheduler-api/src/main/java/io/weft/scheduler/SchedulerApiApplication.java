package io.weft.scheduler;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The scheduler API: jobs in, paths out. PostgreSQL is the source of truth (jobs, path
 * assignments, per-NIC versions); the in-memory state (reservations, long-poll waiters) is rebuilt
 * from it at start-up. Runs from a plain classpath (module jar + target/lib), never a fat jar.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class SchedulerApiApplication {

    public static void main(String[] args) {
        SpringApplication.run(SchedulerApiApplication.class, args);
    }
}
