/**
 * What every other package of the driver may use: the connection properties, the driver's identity,
 * the class loader every JDBC call runs under, and the background loading of a first query's
 * classes.
 */
package dev.floe.config;
