/** Floe's public JDBC entry points: the driver, a data source, and the connection properties. */
package dev.floe;
