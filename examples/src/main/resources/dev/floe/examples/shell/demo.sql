-- 1. A join of three tables: the five best customers by revenue.
SELECT c.name, c.country, COUNT(DISTINCT o.id) AS orders, SUM(i.quantity * i.unit_price) AS revenue
FROM customers c
JOIN orders o ON o.customer_id = c.id
JOIN order_items i ON i.order_id = o.id
GROUP BY c.name, c.country
ORDER BY revenue DESC
LIMIT 5;
-- 2. Partition pruning: orders is partitioned by month(order_date). The filter reaches the
--    Iceberg scan (filter=... below), and Iceberg reads only the files of March
--    (dataFiles=[k of n]).
!set outputFormat vertical
EXPLAIN PLAN FOR
SELECT COUNT(*) AS march_orders FROM orders
WHERE order_date >= DATE '2024-03-01' AND order_date < DATE '2024-04-01';
!set outputFormat table
-- 3. After the deletes: December 2023 was dropped as a whole partition and cancelled orders
--    row by row (position deletes); no cancelled order is left.
SELECT status, COUNT(*) AS orders, MIN(order_date) AS first_day, MAX(order_date) AS last_day
FROM orders
GROUP BY status
ORDER BY status;
