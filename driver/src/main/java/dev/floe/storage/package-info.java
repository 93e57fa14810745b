/**
 * Where the lake's files live, and the commit protocol that publishes a table's metadata versions.
 *
 * <ul>
 *   <li>Whatever the store: {@link dev.floe.storage.LakeLocation} (a lake's location in its one
 *       canonical spelling), {@link dev.floe.storage.LakeStore} (a local folder or an S3 prefix),
 *       {@link dev.floe.storage.FolderCatalog} (the planner's catalog over the folders of either),
 *       {@link dev.floe.storage.LakeTableOperations} (finding a table's current version; the store
 *       publishes the next one atomically), {@link dev.floe.storage.ParsedMetadata}, {@link
 *       dev.floe.storage.FileOwnership}, {@link dev.floe.storage.TableFiles} and {@link
 *       dev.floe.storage.TablePropertyRules}.
 *   <li>A local folder only: {@link dev.floe.storage.LocalStore}, {@link
 *       dev.floe.storage.LocalFileIO} (java.nio, no Hadoop), {@link
 *       dev.floe.storage.LocalTableOperations} (publishing by a hard link that fails when the
 *       version exists), {@link dev.floe.storage.Sandbox} (nothing created or deleted outside the
 *       root), and {@link dev.floe.storage.ExternalFileAccess} (the local files {@code
 *       read_parquet} reads).
 *   <li>S3 only: {@link dev.floe.storage.S3Store}, {@link dev.floe.storage.S3LakeFileIO} and {@link
 *       dev.floe.storage.S3TableOperations} (publishing by a conditional PUT).
 * </ul>
 */
package dev.floe.storage;
