/**
 * The {@code floe} shell: sqlline, the standard JDBC shell, started on a Floe lake. {@link
 * dev.floe.examples.shell.FloeShell} parses the command line, creates the sample lake ({@link
 * dev.floe.examples.shell.SampleLake}) on first use and runs sqlline; {@link
 * dev.floe.examples.shell.WatchingDriver} puts a {@link dev.floe.examples.shell.LakeWatcher} around
 * each statement sqlline runs, which reports the snapshot a write committed and the progress of a
 * long write.
 */
package dev.floe.examples.shell;
