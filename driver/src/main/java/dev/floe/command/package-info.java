/**
 * Statements Floe runs itself rather than through Calcite: DDL, and the batch path of
 * parameterized INSERTs. Commands reach the connection only through {@link
 * dev.floe.command.CommandContext}.
 */
package dev.floe.command;
