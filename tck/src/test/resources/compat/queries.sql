-- Queries as users of Trino, Spark SQL, PostgreSQL and DuckDB write them, over the table sales
-- (CompatibilityCorpusTest loads it). Each runs on Floe and on DuckDB over the same Parquet files
-- and must give the same rows. A query ends with a line ending in ";".

-- Aggregates and GROUP BY (all four)
SELECT region, COUNT(*) AS n, SUM(qty) AS units, MIN(price) AS low, MAX(price) AS high
FROM sales GROUP BY region ORDER BY region;

SELECT COUNT(DISTINCT product) AS products, COUNT(note) AS notes, AVG(CAST(qty AS DOUBLE)) AS mean FROM sales;

SELECT region, SUM(qty * price) AS revenue FROM sales GROUP BY region HAVING SUM(qty) > 5 ORDER BY revenue DESC;

-- AVG, STDDEV and VAR of an integer column are DOUBLE in all four (not the column's type)
SELECT region, AVG(qty) AS mean, ROUND(stddev_samp(qty), 6) AS sd, ROUND(var_pop(qty), 6) AS vp
FROM sales GROUP BY region ORDER BY region;

-- Names that are not reserved in Trino, Spark or PostgreSQL
SELECT id AS value, qty AS running, region AS method FROM sales ORDER BY value;

SELECT s.id, s.region FROM sales AS s WHERE s.region IN ('north', 'south') ORDER BY s.id;

-- String functions
SELECT id, UPPER(product) AS p, LOWER(region) AS r, LENGTH(product) AS len FROM sales ORDER BY id;

SELECT id, SUBSTRING(product, 1, 3) AS prefix, TRIM('  ' || region || '  ') AS trimmed FROM sales ORDER BY id;

SELECT id, CONCAT(region, '-', product) AS label, REPLACE(product, 'a', 'A') AS shouted FROM sales ORDER BY id;

SELECT id, split_part(note, ' ', 1) AS first_word FROM sales WHERE note IS NOT NULL ORDER BY id;

SELECT id FROM sales WHERE starts_with(product, 'ap') ORDER BY id;

SELECT id FROM sales WHERE product ILIKE 'A%' ORDER BY id;

SELECT id, concat_ws('/', region, product) AS path FROM sales ORDER BY id;

SELECT region, string_agg(product, ',' ORDER BY product) AS products FROM sales GROUP BY region ORDER BY region;

-- NULL handling
SELECT id, COALESCE(note, 'none') AS note, NULLIF(qty, 1) AS not_one FROM sales ORDER BY id;

SELECT id, ifnull(note, '-') AS note FROM sales ORDER BY id;

SELECT id, greatest(qty, 3) AS at_least_3, least(qty, 3) AS at_most_3 FROM sales ORDER BY id;

-- Conditional expressions
SELECT id, CASE WHEN qty >= 5 THEN 'bulk' WHEN qty >= 2 THEN 'few' ELSE 'one' END AS size FROM sales ORDER BY id;

SELECT SUM(CASE WHEN region = 'north' THEN qty ELSE 0 END) AS north_units, COUNT(*) FILTER (WHERE qty > 2) AS big FROM sales;

-- Dates
SELECT id, EXTRACT(YEAR FROM sold) AS y, EXTRACT(MONTH FROM sold) AS m, EXTRACT(DAY FROM sold) AS d FROM sales ORDER BY id;

SELECT date_trunc('month', sold) AS month, COUNT(*) AS n FROM sales GROUP BY date_trunc('month', sold) ORDER BY month;

SELECT id, sold + INTERVAL '1' DAY AS next_day FROM sales ORDER BY id;

SELECT id FROM sales WHERE sold BETWEEN DATE '2024-02-01' AND DATE '2024-03-31' ORDER BY id;

SELECT id, CAST(sold AS VARCHAR) AS text FROM sales ORDER BY id;

-- Casts and arithmetic
SELECT id, qty % 3 AS rest, ABS(qty - 4) AS dist FROM sales ORDER BY id;

SELECT id, ROUND(price * 1.1, 1) AS raised, FLOOR(price) AS f, CEIL(price) AS c FROM sales ORDER BY id;

SELECT id, try_cast(note AS INTEGER) AS number FROM sales ORDER BY id;

SELECT id, qty::VARCHAR AS text FROM sales ORDER BY id;

-- Window functions
SELECT id, region, ROW_NUMBER() OVER (PARTITION BY region ORDER BY id) AS rn FROM sales ORDER BY id;

SELECT id, SUM(qty) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_total FROM sales ORDER BY id;

SELECT id, RANK() OVER (ORDER BY qty DESC) AS r, DENSE_RANK() OVER (ORDER BY qty DESC) AS dr FROM sales ORDER BY id;

SELECT id, LAG(qty) OVER (ORDER BY id) AS prev, LEAD(qty, 1, 0) OVER (ORDER BY id) AS following FROM sales ORDER BY id;

SELECT id, FIRST_VALUE(product) OVER (PARTITION BY region ORDER BY id) AS first_product FROM sales ORDER BY id;

-- Common table expressions and subqueries
WITH totals AS (SELECT region, SUM(qty) AS units FROM sales GROUP BY region)
SELECT region, units FROM totals WHERE units > (SELECT AVG(units) FROM totals) ORDER BY region;

SELECT id FROM sales s WHERE qty > (SELECT AVG(qty) FROM sales t WHERE t.region = s.region) ORDER BY id;

SELECT id FROM sales WHERE EXISTS (SELECT 1 FROM sales t WHERE t.product = sales.product AND t.id <> sales.id) ORDER BY id;

-- Ordered-set and statistical aggregates
SELECT median(qty) AS med FROM sales;

SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY qty) AS p50 FROM sales;

-- Set operations, LIMIT and OFFSET
SELECT region FROM sales WHERE qty > 4 UNION SELECT region FROM sales WHERE qty = 1 ORDER BY region;

SELECT product FROM sales INTERSECT SELECT product FROM sales WHERE region = 'north' ORDER BY product;

SELECT id FROM sales ORDER BY id LIMIT 3 OFFSET 2;

SELECT id FROM sales ORDER BY price DESC, id FETCH FIRST 2 ROWS ONLY;

-- Booleans
SELECT id, qty > 2 AS many FROM sales WHERE NOT (region = 'east') ORDER BY id;

-- More of the everyday vocabulary
SELECT DISTINCT region FROM sales ORDER BY region;

SELECT region, COUNT(*) FROM sales GROUP BY 1 ORDER BY 2 DESC, 1;

SELECT id, COUNT(*) OVER () AS total_rows, SUM(qty) OVER (PARTITION BY region) AS region_units FROM sales ORDER BY id;

SELECT id, date_diff('day', DATE '2024-01-01', sold) AS days FROM sales ORDER BY id;

SELECT id, position('a' IN product) AS pos, strpos(product, 'an') AS sp, lpad(region, 6, '*') AS padded FROM sales ORDER BY id;

SELECT id, reverse(product) AS backwards, left(product, 2) AS l2, right(product, 2) AS r2, substr(product, 2, 3) AS mid FROM sales ORDER BY id;

SELECT id, char_length(product) AS cl, sign(qty - 4) AS sg, power(qty, 2) AS sq, mod(qty, 4) AS m4 FROM sales ORDER BY id;

SELECT bool_and(qty > 0) AS all_positive, bool_or(qty > 7) AS any_big, count_if(qty > 2) AS big FROM sales;

SELECT region, max_by(product, qty) AS top_product, min_by(product, qty) AS least_product FROM sales GROUP BY region ORDER BY region;

SELECT ROUND(stddev_samp(CAST(qty AS DOUBLE)), 6) AS sd, ROUND(var_samp(CAST(qty AS DOUBLE)), 6) AS var FROM sales;

SELECT id, year(sold) AS y, month(sold) AS m, day(sold) AS d, quarter(sold) AS q FROM sales ORDER BY id;

SELECT id, date_part('year', sold) AS y, EXTRACT(QUARTER FROM sold) AS q FROM sales ORDER BY id;

SELECT id, note FROM sales ORDER BY note NULLS FIRST, id;

SELECT id, note FROM sales ORDER BY note DESC NULLS LAST, id;

SELECT a.id, b.id AS other FROM sales a JOIN sales b ON a.product = b.product AND a.id < b.id ORDER BY a.id;

SELECT a.id, b.qty FROM sales a LEFT JOIN (SELECT product, SUM(qty) AS qty FROM sales WHERE region = 'north' GROUP BY product) b USING (product) ORDER BY a.id;

SELECT region FROM sales EXCEPT SELECT region FROM sales WHERE qty > 5 ORDER BY region;

SELECT id FROM sales WHERE product NOT IN (SELECT product FROM sales WHERE region = 'east') ORDER BY id;

SELECT id FROM sales WHERE note IS DISTINCT FROM '42' ORDER BY id;

SELECT region, product, SUM(qty) AS units FROM sales GROUP BY ROLLUP (region, product) ORDER BY region NULLS LAST, product NULLS LAST;

SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t (n, letter) ORDER BY n;

SELECT id, CAST('2024-01-01' AS DATE) < sold AS after_new_year, CAST(qty AS DECIMAL(5, 1)) AS q FROM sales ORDER BY id;

SELECT region, COUNT(*) FILTER (WHERE note IS NULL) AS without_note FROM sales GROUP BY region ORDER BY region;

SELECT id, sold - INTERVAL '1' MONTH AS month_before FROM sales ORDER BY id;
