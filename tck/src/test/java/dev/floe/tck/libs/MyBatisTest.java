package dev.floe.tck.libs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;
import org.apache.ibatis.builder.xml.XMLMapperBuilder;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.jdbc.ScriptRunner;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MyBatis over a HikariCP pool of the shaded jar's connections: an annotated mapper whose DDL,
 * inserts, updates and queries MyBatis prepares, in sessions that commit or roll back.
 */
class MyBatisTest {
  @TempDir Path root;
  private HikariDataSource pool;
  private SqlSessionFactory sessions;

  /** A row of the events table. */
  public static class Event {
    public int id;
    public String name;

    public Event() {}

    Event(int id, String name) {
      this.id = id;
      this.name = name;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Event e && e.id == id && java.util.Objects.equals(e.name, name);
    }

    @Override
    public int hashCode() {
      return id;
    }

    @Override
    public String toString() {
      return id + " " + name;
    }
  }

  /** The mapper: every statement is prepared by MyBatis. */
  public interface EventMapper {
    @Update("CREATE TABLE events (id INT, name VARCHAR)")
    void createTable();

    @Update("DROP TABLE events")
    void dropTable();

    @Insert("INSERT INTO events (id, name) VALUES (#{id}, #{name})")
    int insert(Event event);

    @Update("UPDATE events SET name = #{name} WHERE id = #{id}")
    int rename(@Param("id") int id, @Param("name") String name);

    @Select("SELECT id, name FROM events ORDER BY id")
    List<Event> all();

    @Select("SELECT name FROM events WHERE id = #{id}")
    String nameOf(int id);

    @Select("SELECT COUNT(*) FROM events")
    long count();
  }

  @BeforeEach
  void connect() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:floe:" + root);
    config.setMaximumPoolSize(2);
    pool = new HikariDataSource(config);
    Configuration configuration =
        new Configuration(new Environment("lake", new JdbcTransactionFactory(), pool));
    configuration.addMapper(EventMapper.class);
    configuration.setMapUnderscoreToCamelCase(true);
    sessions = new SqlSessionFactoryBuilder().build(configuration);
  }

  @AfterEach
  void close() {
    pool.close();
  }

  @Test
  void aMapperRunsDdlInsertsAndQueries() {
    try (SqlSession s = sessions.openSession(true)) {
      EventMapper m = s.getMapper(EventMapper.class);
      m.createTable();
      assertThat(m.insert(new Event(1, "a"))).isEqualTo(1);
      assertThat(m.insert(new Event(2, null))).isEqualTo(1);
      assertThat(m.rename(2, "b")).isEqualTo(1);
      assertThat(m.all()).containsExactly(new Event(1, "a"), new Event(2, "b"));
      assertThat(m.nameOf(1)).isEqualTo("a");
      m.dropTable();
    }
  }

  @Test
  void aSessionCommitsOrRollsBackAsOne() {
    try (SqlSession s = sessions.openSession(true)) {
      s.getMapper(EventMapper.class).createTable();
    }
    try (SqlSession s = sessions.openSession()) {
      EventMapper m = s.getMapper(EventMapper.class);
      m.insert(new Event(1, "a"));
      m.insert(new Event(2, "b"));
      s.commit();
    }
    try (SqlSession s = sessions.openSession()) {
      EventMapper m = s.getMapper(EventMapper.class);
      m.insert(new Event(3, "c"));
      assertThat(m.count()).isEqualTo(3L);
      s.rollback();
    }
    try (SqlSession s = sessions.openSession()) {
      assertThat(s.getMapper(EventMapper.class).all())
          .containsExactly(new Event(1, "a"), new Event(2, "b"));
    }
  }

  @Test
  void aBatchSessionInsertsManyRows() {
    try (SqlSession s = sessions.openSession(true)) {
      s.getMapper(EventMapper.class).createTable();
    }
    try (SqlSession s = sessions.openSession(ExecutorType.BATCH)) {
      EventMapper m = s.getMapper(EventMapper.class);
      for (int i = 1; i <= 20; i++) {
        m.insert(new Event(i, "n" + i));
      }
      s.commit();
    }
    try (SqlSession s = sessions.openSession()) {
      assertThat(s.getMapper(EventMapper.class).count()).isEqualTo(20L);
    }
  }

  @Test
  void theScriptRunnerRunsAScript() throws Exception {
    try (Connection c = pool.getConnection()) {
      ScriptRunner runner = new ScriptRunner(c);
      runner.setLogWriter(null);
      runner.setStopOnError(true);
      runner.runScript(
          new StringReader(
              "-- the schema\n"
                  + "CREATE TABLE events (id INT, name VARCHAR);\n"
                  + "INSERT INTO events VALUES (1, 'a');\n"
                  + "INSERT INTO events VALUES (2, 'b');\n"));
    }
    try (SqlSession s = sessions.openSession()) {
      assertThat(s.getMapper(EventMapper.class).count()).isEqualTo(2L);
    }
  }

  @Test
  void anXmlMapperWithAForeachAndAResultMapRuns() {
    Configuration configuration = sessions.getConfiguration();
    String xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
            + "<!DOCTYPE mapper PUBLIC \"-//mybatis.org//DTD Mapper 3.0//EN\""
            + " \"https://mybatis.org/dtd/mybatis-3-mapper.dtd\">\n"
            + "<mapper namespace=\"events\">\n"
            + "  <resultMap id=\"event\" type=\""
            + Event.class.getName()
            + "\">\n"
            + "    <id property=\"id\" column=\"id\"/>\n"
            + "    <result property=\"name\" column=\"name\"/>\n"
            + "  </resultMap>\n"
            + "  <select id=\"byIds\" resultMap=\"event\">\n"
            + "    SELECT id, name FROM events\n"
            + "    <where>\n"
            + "      id IN <foreach item=\"i\" collection=\"list\" open=\"(\" separator=\",\""
            + " close=\")\">#{i}</foreach>\n"
            + "      <if test=\"true\">AND name IS NOT NULL</if>\n"
            + "    </where>\n"
            + "    ORDER BY id\n"
            + "  </select>\n"
            + "</mapper>\n";
    new XMLMapperBuilder(
            new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)),
            configuration,
            "events.xml",
            configuration.getSqlFragments())
        .parse();
    try (SqlSession s = sessions.openSession(true)) {
      EventMapper m = s.getMapper(EventMapper.class);
      m.createTable();
      m.insert(new Event(1, "a"));
      m.insert(new Event(2, "b"));
      m.insert(new Event(3, "c"));
      List<Event> found = s.selectList("events.byIds", List.of(1, 3));
      assertThat(found).containsExactly(new Event(1, "a"), new Event(3, "c"));
    }
  }

  @Test
  void aFailingStatementCarriesFloesSqlState() {
    try (SqlSession s = sessions.openSession(true)) {
      EventMapper m = s.getMapper(EventMapper.class);
      assertThatThrownBy(m::dropTable)
          .isInstanceOf(PersistenceException.class)
          .satisfies(e -> assertThat(Causes.sqlState(e)).isEqualTo("42S02"))
          .hasMessageContaining("events");
    }
  }
}
