//! A port of the official MCP memory server (npm `@modelcontextprotocol/server-memory`) to
//! `#[tool]`: nine tools over a knowledge graph of entities, relations and observations, with
//! no hand-written schema. Its `tools/list` says what the real server's says (recorded in
//! `tests/fixtures/memory-server/`), fact for fact: names, titles, descriptions, hints,
//! parameter names, types, required sets, item schemas and their descriptions. And the tools
//! work.

use std::collections::BTreeSet;
use std::sync::Mutex;

use mcp_annotations::{
    Context, Json, Listing, ProtocolVersion, ToolSchema, listing::ListOptions, tool, tools,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

// The item types: no doc comment on the types themselves (the real server's items have no
// description), one on each field.

#[derive(ToolSchema, Deserialize, Serialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Entity {
    /// The name of the entity
    pub name: String,
    /// The type of the entity
    pub entity_type: String,
    /// An array of observation contents associated with the entity
    pub observations: Vec<String>,
}

#[derive(ToolSchema, Deserialize, Serialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Relation {
    /// The name of the entity where the relation starts
    pub from: String,
    /// The name of the entity where the relation ends
    pub to: String,
    /// The type of the relation
    pub relation_type: String,
}

#[derive(ToolSchema, Deserialize, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct NewObservations {
    /// The name of the entity to add the observations to
    pub entity_name: String,
    /// An array of observation contents to add
    pub contents: Vec<String>,
}

#[derive(ToolSchema, Deserialize, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Deletion {
    /// The name of the entity containing the observations
    pub entity_name: String,
    /// An array of observations to delete
    pub observations: Vec<String>,
}

/// The knowledge graph.
#[derive(ToolSchema, Default, Serialize, Clone)]
pub struct Graph {
    pub entities: Vec<Entity>,
    pub relations: Vec<Relation>,
}

/// The server: the graph, in memory.
#[derive(Default)]
pub struct Memory(Mutex<Graph>);

impl Memory {
    fn graph(&self) -> std::sync::MutexGuard<'_, Graph> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Create multiple new entities in the knowledge graph
    #[tool(
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world = false,
        title = "Create Entities"
    )]
    fn create_entities(&self, entities: Vec<Entity>) -> Json<Vec<Entity>> {
        let mut graph = self.graph();
        let created: Vec<Entity> = entities
            .into_iter()
            .filter(|new| !graph.entities.iter().any(|known| known.name == new.name))
            .collect();
        graph.entities.extend(created.iter().cloned());
        Json(created)
    }

    /// Create multiple new relations between entities in the knowledge graph. Relations should be in active voice
    #[tool(
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world = false,
        title = "Create Relations"
    )]
    fn create_relations(&self, relations: Vec<Relation>) -> Json<Vec<Relation>> {
        let mut graph = self.graph();
        let created: Vec<Relation> = relations
            .into_iter()
            .filter(|new| !graph.relations.contains(new))
            .collect();
        graph.relations.extend(created.iter().cloned());
        Json(created)
    }

    /// Add new observations to existing entities in the knowledge graph
    #[tool(
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world = false,
        title = "Add Observations"
    )]
    fn add_observations(&self, observations: Vec<NewObservations>) -> Result<Json<Value>, String> {
        let mut graph = self.graph();
        let mut added = Vec::new();
        for new in observations {
            let entity = graph
                .entities
                .iter_mut()
                .find(|entity| entity.name == new.entity_name)
                .ok_or_else(|| format!("Entity with name {} not found", new.entity_name))?;
            let fresh: Vec<String> = new
                .contents
                .into_iter()
                .filter(|content| !entity.observations.contains(content))
                .collect();
            entity.observations.extend(fresh.iter().cloned());
            added.push(json!({"entityName": new.entity_name, "addedObservations": fresh}));
        }
        Ok(Json(json!({"results": added})))
    }

    /// Delete multiple entities and their associated relations from the knowledge graph
    #[tool(
        read_only = false,
        destructive,
        idempotent,
        open_world = false,
        title = "Delete Entities"
    )]
    fn delete_entities(
        &self,
        /// An array of entity names to delete
        #[schema(rename = "entityNames")]
        entity_names: Vec<String>,
    ) -> &'static str {
        let names: BTreeSet<String> = entity_names.into_iter().collect();
        let mut graph = self.graph();
        graph
            .entities
            .retain(|entity| !names.contains(&entity.name));
        graph
            .relations
            .retain(|relation| !names.contains(&relation.from) && !names.contains(&relation.to));
        "Entities deleted successfully"
    }

    /// Delete specific observations from entities in the knowledge graph
    #[tool(
        read_only = false,
        destructive,
        idempotent,
        open_world = false,
        title = "Delete Observations"
    )]
    fn delete_observations(&self, deletions: Vec<Deletion>) -> &'static str {
        let mut graph = self.graph();
        for deletion in deletions {
            if let Some(entity) = graph
                .entities
                .iter_mut()
                .find(|entity| entity.name == deletion.entity_name)
            {
                entity
                    .observations
                    .retain(|observation| !deletion.observations.contains(observation));
            }
        }
        "Observations deleted successfully"
    }

    /// Delete multiple relations from the knowledge graph
    #[tool(
        read_only = false,
        destructive,
        idempotent,
        open_world = false,
        title = "Delete Relations"
    )]
    fn delete_relations(
        &self,
        /// An array of relations to delete
        relations: Vec<Relation>,
    ) -> &'static str {
        self.graph()
            .relations
            .retain(|known| !relations.contains(known));
        "Relations deleted successfully"
    }

    /// Read the entire knowledge graph
    #[tool(
        read_only,
        destructive = false,
        idempotent,
        open_world = false,
        title = "Read Graph"
    )]
    fn read_graph(&self) -> Json<Graph> {
        Json(self.graph().clone())
    }

    /// Search for nodes in the knowledge graph based on a query
    #[tool(
        read_only,
        destructive = false,
        idempotent,
        open_world = false,
        title = "Search Nodes"
    )]
    fn search_nodes(
        &self,
        /// The search query to match against entity names, types, and observation content
        query: String,
    ) -> Json<Graph> {
        let query = query.to_lowercase();
        let graph = self.graph();
        let entities: Vec<Entity> = graph
            .entities
            .iter()
            .filter(|entity| {
                entity.name.to_lowercase().contains(&query)
                    || entity.entity_type.to_lowercase().contains(&query)
                    || entity
                        .observations
                        .iter()
                        .any(|observation| observation.to_lowercase().contains(&query))
            })
            .cloned()
            .collect();
        Json(subgraph(&graph, entities))
    }

    /// Open specific nodes in the knowledge graph by their names
    #[tool(
        read_only,
        destructive = false,
        idempotent,
        open_world = false,
        title = "Open Nodes"
    )]
    fn open_nodes(
        &self,
        /// An array of entity names to retrieve
        names: Vec<String>,
    ) -> Json<Graph> {
        let graph = self.graph();
        let entities: Vec<Entity> = graph
            .entities
            .iter()
            .filter(|entity| names.contains(&entity.name))
            .cloned()
            .collect();
        Json(subgraph(&graph, entities))
    }
}

/// The entities, and the relations between them.
fn subgraph(graph: &Graph, entities: Vec<Entity>) -> Graph {
    let names: BTreeSet<&str> = entities.iter().map(|entity| entity.name.as_str()).collect();
    let relations = graph
        .relations
        .iter()
        .filter(|relation| {
            names.contains(relation.from.as_str()) && names.contains(relation.to.as_str())
        })
        .cloned()
        .collect();
    Graph {
        entities: entities.clone(),
        relations,
    }
}

static TOOLS: Listing<Memory> = tools![
    ready = strict;
    Memory::create_entities,
    Memory::create_relations,
    Memory::add_observations,
    Memory::delete_entities,
    Memory::delete_observations,
    Memory::delete_relations,
    Memory::read_graph,
    Memory::search_nodes,
    Memory::open_nodes,
];

/// The facts of an input schema a client acts on: types, properties and their order,
/// required sets, items, descriptions, defaults and enums. Left out: `$schema` (the real
/// server states draft-07, this crate writes 2020-12 without stating it) and
/// `additionalProperties` (this crate closes its objects, which the real server leaves open).
fn facts(schema: &Value) -> Value {
    let Some(object) = schema.as_object() else {
        return schema.clone();
    };
    let mut out = Map::new();
    for key in ["type", "description", "default", "enum"] {
        if let Some(value) = object.get(key) {
            out.insert(key.into(), value.clone());
        }
    }
    // An object schema without `properties` lists none, as one with `"properties": {}` does.
    let none = Value::Object(Map::new());
    let properties = match object.get("properties") {
        None if object.get("type") == Some(&json!("object")) => Some(&none),
        other => other,
    };
    if let Some(Value::Object(properties)) = properties {
        let properties: Map<String, Value> = properties
            .iter()
            .map(|(name, property)| (name.clone(), facts(property)))
            .collect();
        // Properties in order, as a list (a JSON object's order is not compared otherwise).
        let names: Vec<&String> = properties.keys().collect();
        out.insert("propertyNames".into(), json!(names));
        out.insert("properties".into(), Value::Object(properties));
    }
    if let Some(Value::Array(required)) = object.get("required") {
        let mut required: Vec<&Value> = required.iter().collect();
        required.sort_by_key(|name| name.as_str().unwrap_or_default().to_owned());
        out.insert("required".into(), json!(required));
    }
    if let Some(items) = object.get("items") {
        out.insert("items".into(), facts(items));
    }
    Value::Object(out)
}

/// A tool's listed facts.
fn tool_facts(tool: &Value) -> Value {
    let hints = &tool["annotations"];
    json!({
        "name": tool["name"],
        "title": tool["title"],
        "description": tool["description"],
        "hints": {
            "readOnlyHint": hints["readOnlyHint"],
            "destructiveHint": hints["destructiveHint"],
            "idempotentHint": hints["idempotentHint"],
            "openWorldHint": hints["openWorldHint"],
        },
        "inputSchema": facts(&tool["inputSchema"]),
    })
}

#[test]
fn the_listing_says_what_the_real_servers_says() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/memory-server/tools-list.json"
    );
    let real: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let options = ListOptions::new(ProtocolVersion::V2025_11_25)
        .with_annotations(mcp_annotations::listing::AnnotationsForm::Explicit);
    let ours: Value = serde_json::from_str(&TOOLS.render(&options, None).unwrap()).unwrap();
    let real_tools = real["tools"].as_array().unwrap();
    let our_tools = ours["tools"].as_array().unwrap();
    assert_eq!(our_tools.len(), 9);
    assert_eq!(our_tools.len(), real_tools.len());
    for (theirs, ours) in real_tools.iter().zip(our_tools) {
        assert_eq!(tool_facts(ours), tool_facts(theirs), "{}", theirs["name"]);
    }
}

fn call(memory: &Memory, name: &str, arguments: Value) -> mcp_annotations::ToolResult {
    let call = TOOLS
        .call(
            memory,
            name,
            arguments.as_object().cloned(),
            Context::none(),
        )
        .unwrap();
    tokio::runtime::Runtime::new().unwrap().block_on(call)
}

#[test]
fn the_tools_keep_a_graph() {
    let memory = Memory::default();
    let created = call(
        &memory,
        "create_entities",
        json!({"entities": [
            {"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]},
            {"name": "Engine", "entityType": "machine", "observations": []}
        ]}),
    );
    assert!(!created.is_error, "{}", created.text_content());
    let related = call(
        &memory,
        "create_relations",
        json!({"relations": [{"from": "Ada", "to": "Engine", "relationType": "programmed"}]}),
    );
    assert!(!related.is_error, "{}", related.text_content());
    call(
        &memory,
        "add_observations",
        json!({"observations": [{"entityName": "Engine", "contents": ["analytical"]}]}),
    );
    let found = call(&memory, "search_nodes", json!({"query": "analytical"}));
    assert_eq!(
        found.structured_content.unwrap()["entities"][0]["name"],
        "Engine"
    );
    let missing = call(
        &memory,
        "add_observations",
        json!({"observations": [{"entityName": "Nobody", "contents": []}]}),
    );
    assert!(missing.is_error);
    let opened = call(&memory, "open_nodes", json!({"names": ["Ada", "Engine"]}));
    assert_eq!(
        opened.structured_content.unwrap()["relations"][0]["relationType"],
        "programmed"
    );
    call(
        &memory,
        "delete_entities",
        json!({"entityNames": ["Engine"]}),
    );
    let graph = call(&memory, "read_graph", json!({}))
        .structured_content
        .unwrap();
    assert_eq!(graph["entities"].as_array().unwrap().len(), 1);
    assert_eq!(graph["relations"], json!([]));
    // A bad argument is a failed result that names it, as for every tool of this crate.
    let bad = call(
        &memory,
        "create_entities",
        json!({"entities": [{"name": "X"}]}),
    );
    assert!(bad.is_error);
    assert!(
        bad.text_content().contains("entities"),
        "{}",
        bad.text_content()
    );
}

#[test]
fn every_schema_is_a_json_schema_and_every_tool_valid_in_every_version() {
    for version in ProtocolVersion::ALL {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas/full/schema-");
        let schema: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{file}{version}.json")).unwrap(),
        )
        .unwrap();
        let defs = if schema.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        let tool = json!({"$schema": schema["$schema"], "$ref": format!("#/{defs}/Tool"), defs: schema[defs]});
        let validator = jsonschema::validator_for(&tool).unwrap();
        let listed: Value =
            serde_json::from_str(&TOOLS.render(&ListOptions::new(version), None).unwrap()).unwrap();
        for listed in listed["tools"].as_array().unwrap() {
            assert!(validator.is_valid(listed), "{version}: {listed}");
            jsonschema::meta::validate(&listed["inputSchema"]).unwrap();
            if let Some(output) = listed.get("outputSchema") {
                jsonschema::meta::validate(output).unwrap();
            }
        }
    }
    for schema in [
        Entity::tool_schema(),
        Relation::tool_schema(),
        NewObservations::tool_schema(),
        Deletion::tool_schema(),
        Graph::tool_schema(),
    ] {
        jsonschema::meta::validate(&schema).unwrap();
    }
}
