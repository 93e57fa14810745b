/**
 * The write-path kit: tests that write through the shaded driver the way users do and check the
 * result with Iceberg's own Java API (never Floe's storage classes): where files land, what other
 * engines read, failure atomicity, concurrent writers, and refused input.
 */
package dev.floe.tck.write;
