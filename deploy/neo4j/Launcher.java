// Starts a Neo4j 2026.x community server with neo4j.sh's --home-dir and --config-dir:
// 5.x's org.neo4j.server.CommunityEntryPoint is gone from 2026.x. Run in source-file
// mode (`java -cp … Launcher.java …`), so it needs no compile step.
public class Launcher {
    public static void main(String[] args) {
        int status = org.neo4j.server.NeoBootstrapper.start(new org.neo4j.server.CommunityBootstrapper(), args);
        if (status != 0) System.exit(status);
    }
}
