/**
 * What every other package of the driver may use: the connection properties, the driver's
 * identity, and the class loader every JDBC call runs under.
 */
package dev.floe.config;
