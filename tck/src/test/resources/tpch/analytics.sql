-- Analyst queries over the TPC-H tables that are not TPC-H's: shapes its 22 do not have (windows,
-- top-N, ROLLUP, UNION ALL, high-cardinality grouping, date buckets, string functions), so that the
-- benchmark does not measure only what it was tuned on. Each query starts at a line "-- name:".
-- Every ORDER BY ... LIMIT breaks its ties, so Floe and DuckDB must give the same rows.

-- a01: distinct count per group
select l_returnflag, count(distinct l_partkey) as parts
from lineitem
group by l_returnflag
order by l_returnflag;

-- a02: top-N of a large table
select l_orderkey, l_linenumber, l_extendedprice
from lineitem
order by l_extendedprice desc, l_orderkey, l_linenumber
limit 20;

-- a03: high-cardinality grouping, top-N of the groups
select l_orderkey, sum(l_quantity) as qty
from lineitem
group by l_orderkey
order by qty desc, l_orderkey
limit 10;

-- a04: month buckets of a date
select extract(year from o_orderdate) as yr, extract(month from o_orderdate) as mon,
  count(*) as n, sum(o_totalprice) as total
from orders
group by extract(year from o_orderdate), extract(month from o_orderdate)
order by yr, mon;

-- a05: string function as a grouping key
select substring(c_phone from 1 for 2) as country, count(*) as n, sum(c_acctbal) as bal
from customer
group by substring(c_phone from 1 for 2)
order by country;

-- a06: conditional aggregates
select l_shipmode,
  sum(case when l_discount > 0.05 then 1 else 0 end) as discounted,
  sum(case when l_returnflag = 'R' then l_extendedprice else 0 end) as returned
from lineitem
group by l_shipmode
order by l_shipmode;

-- a07: rank within groups
select c_nationkey, c_custkey, c_acctbal
from (
  select c_nationkey, c_custkey, c_acctbal,
    row_number() over (partition by c_nationkey order by c_acctbal desc, c_custkey) as rn
  from customer) t
where rn <= 3
order by c_nationkey, c_acctbal desc, c_custkey;

-- a08: running total per customer
select count(*) as n, max(running) as top
from (
  select sum(o_totalprice) over (partition by o_custkey order by o_orderdate, o_orderkey) as running
  from orders) t;

-- a09: distinct pairs
select count(*) as pairs
from (select distinct l_partkey, l_suppkey from lineitem) t;

-- a10: join, aggregate, having, top-N
select c_custkey, c_name, sum(o_totalprice) as spent, count(*) as orders
from customer join orders on c_custkey = o_custkey
group by c_custkey, c_name
having count(*) > 20
order by spent desc, c_custkey
limit 20;

-- a11: IN subquery
select o_orderpriority, count(*) as n
from orders
where o_custkey in (select c_custkey from customer where c_mktsegment = 'BUILDING')
group by o_orderpriority
order by o_orderpriority;

-- a12: customers with no orders
select count(*) as idle
from customer
where not exists (select * from orders where o_custkey = c_custkey);

-- a13: substring search
select count(*) as n
from lineitem
where l_comment like '%carefully%';

-- a14: ROLLUP
select l_returnflag, l_linestatus, sum(l_quantity) as qty, count(*) as n
from lineitem
group by rollup (l_returnflag, l_linestatus)
order by l_returnflag nulls last, l_linestatus nulls last;

-- a15: UNION ALL of two filtered tables
select count(*) as n, sum(k) as keys
from (
  select l_orderkey as k from lineitem where l_shipdate >= date '1998-06-01'
  union all
  select o_orderkey as k from orders where o_orderdate >= date '1998-06-01') t;

-- a16: four grouping keys over the largest table
select l_shipmode, l_shipinstruct, l_returnflag, l_linestatus, count(*) as n,
  sum(l_extendedprice * (1 - l_discount)) as revenue
from lineitem
group by l_shipmode, l_shipinstruct, l_returnflag, l_linestatus
order by l_shipmode, l_shipinstruct, l_returnflag, l_linestatus;

-- a17: date comparison of two columns
select l_shipmode, count(*) as late
from lineitem
where l_receiptdate > l_commitdate and l_shipdate < date '1995-01-01'
group by l_shipmode
order by l_shipmode;

-- a18: previous order's price
select count(*) as n, sum(gap) as gaps
from (
  select o_totalprice - lag(o_totalprice) over (partition by o_custkey order by o_orderdate, o_orderkey) as gap
  from orders) t
where gap is not null;

-- a19: three-table join grouped by a dimension's name
select n_name, count(*) as n, sum(l_extendedprice) as total
from lineitem join supplier on l_suppkey = s_suppkey join nation on s_nationkey = n_nationkey
where l_shipdate between date '1996-01-01' and date '1996-12-31'
group by n_name
order by n_name;

-- a20: minimum and maximum of strings
select l_linestatus, min(l_comment) as first, max(l_comment) as last, min(l_shipdate) as early
from lineitem
group by l_linestatus
order by l_linestatus;

-- a21: a deep OFFSET
select o_orderkey, o_totalprice
from orders
order by o_totalprice, o_orderkey
limit 10 offset 100000;

-- a22: the orders of each size of cart
select items, count(*) as orders
from (select l_orderkey, count(*) as items from lineitem group by l_orderkey) t
group by items
order by items;

-- a23: filtered join of two large tables
select o_orderpriority, count(*) as n, sum(l_quantity) as qty
from orders join lineitem on o_orderkey = l_orderkey
where o_orderdate >= date '1997-01-01' and l_discount = 0.10
group by o_orderpriority
order by o_orderpriority;

-- a24: upper case and length
select upper(p_mfgr) as mfgr, count(*) as n, sum(char_length(p_name)) as name_chars
from part
group by upper(p_mfgr)
order by mfgr;

-- a25: scalar subquery comparison
select count(*) as n
from part
where p_retailprice > (select avg(p_retailprice) from part) * 1.2;
