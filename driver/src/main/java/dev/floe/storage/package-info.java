/**
 * Folder-table storage: location parsing, a java.nio FileIO, table discovery, and the atomic
 * create-if-absent commit protocol for publishing metadata versions.
 */
package dev.floe.storage;
