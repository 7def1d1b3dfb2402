<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES">
<context>
    <name>ChatPanel</name>
    <message>
        <location filename="../../desktop/chat.py" line="62"/>
        <source>New conversation</source>
        <translation>Nueva conversación</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="76"/>
        <source>Ask about your books…  (Ctrl+L)</source>
        <translation>Pregunta sobre tus libros…  (Ctrl+L)</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="78"/>
        <source>Ask</source>
        <translation>Preguntar</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="81"/>
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="81"/>
        <source>Stop the answer (Esc)</source>
        <translation>Detener la respuesta (Esc)</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="83"/>
        <source>Copy answer</source>
        <translation>Copiar respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="223"/>
        <source>Delete conversation</source>
        <translation>Eliminar conversación</translation>
    </message>
</context>
<context>
    <name>CoursePack</name>
    <message>
        <location filename="../../desktop/course_pack.py" line="20"/>
        <source>Lantern course packs ({pattern})</source>
        <translation>Paquetes de curso de Lantern ({pattern})</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="77"/>
        <location filename="../../desktop/course_pack.py" line="91"/>
        <source>Export course pack</source>
        <translation>Exportar paquete de curso</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="89"/>
        <source>Writing the course pack…</source>
        <translation>Escribiendo el paquete de curso…</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="89"/>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="106"/>
        <source>Export cancelled: no pack was written.</source>
        <translation>Exportación cancelada: no se escribió ningún paquete.</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="110"/>
        <source>Wrote {name} ({size} MB, {n} book(s)).</source>
        <translation>Se escribió {name} ({size} MB, {n} libro(s)).</translation>
    </message>
</context>
<context>
    <name>ExportPackDialog</name>
    <message>
        <location filename="../../desktop/course_pack.py" line="28"/>
        <source>Export course pack</source>
        <translation>Exportar paquete de curso</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="31"/>
        <source>{title}  ({n} pages)</source>
        <translation>{title}  ({n} páginas)</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="39"/>
        <source>Still being indexed: it can go into a pack when its meaning search is complete.</source>
        <translation>Aún se está indexando: podrá ir en un paquete cuando su búsqueda por significado esté completa.</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="42"/>
        <source>Include study sets (flashcards, lessons, chapter guides)</source>
        <translation>Incluir el material de estudio (tarjetas, lecciones, guías de capítulo)</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="44"/>
        <source>Include my own progress (card reviews, quiz results, conversations)</source>
        <translation>Incluir mi propio progreso (repasos de tarjetas, resultados de cuestionarios, conversaciones)</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="45"/>
        <source>Leave this off when the pack is for someone else.</source>
        <translation>Déjalo desmarcado si el paquete es para otra persona.</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="46"/>
        <source>The pack holds the book files and their finished index: another computer opens them in seconds, without importing or indexing again.</source>
        <translation>El paquete contiene los archivos de los libros y su índice terminado: otro equipo los abre en segundos, sin volver a importarlos ni indexarlos.</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="50"/>
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="56"/>
        <source>Books to put in the pack:</source>
        <translation>Libros que irán en el paquete:</translation>
    </message>
</context>
<context>
    <name>Import</name>
    <message>
        <location filename="../../desktop/import_panel.py" line="24"/>
        <source>Reading</source>
        <translation>Leyendo</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="25"/>
        <source>Reading pages</source>
        <translation>Leyendo páginas</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="26"/>
        <source>Reading scanned pages (OCR)</source>
        <translation>Leyendo páginas escaneadas (OCR)</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="27"/>
        <source>Cutting into passages</source>
        <translation>Dividiendo en fragmentos</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="28"/>
        <source>Indexing meaning</source>
        <translation>Indexando el significado</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="29"/>
        <source>Saving</source>
        <translation>Guardando</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="30"/>
        <source>Checking the course pack</source>
        <translation>Comprobando el paquete de curso</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="31"/>
        <source>Adding books</source>
        <translation>Añadiendo libros</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="49"/>
        <source>under a minute left</source>
        <translation>queda menos de un minuto</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="52"/>
        <source>about {minutes} min left</source>
        <translation>quedan unos {minutes} min</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="53"/>
        <source>about {hours} h left</source>
        <translation>quedan unas {hours} h</translation>
    </message>
</context>
<context>
    <name>ImportPanel</name>
    <message>
        <location filename="../../desktop/import_panel.py" line="176"/>
        <source>Imports</source>
        <translation>Importaciones</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="177"/>
        <source>Clear finished</source>
        <translation>Quitar las terminadas</translation>
    </message>
</context>
<context>
    <name>ImportRow</name>
    <message>
        <location filename="../../desktop/import_panel.py" line="80"/>
        <source>Waiting…</source>
        <translation>En espera…</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="87"/>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="112"/>
        <source>Ready to ask (keyword search) · {progress}</source>
        <translation>Listo para preguntar (búsqueda por palabras clave) · {progress}</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="124"/>
        <source>{n} pages</source>
        <translation>{n} páginas</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="125"/>
        <source>{n} sections</source>
        <translation>{n} secciones</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="126"/>
        <source>✓ Imported “{title}” ({size}, {chapters} chapters)</source>
        <translation>✓ Importado «{title}» ({size}, {chapters} capítulos)</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="129"/>
        <source>Searchable by keyword. {reason}</source>
        <translation>Ya se puede buscar por palabras clave. {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="131"/>
        <source>Already in your library: {reason}</source>
        <translation>Ya está en tu biblioteca: {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="133"/>
        <source>Cancelled — nothing was added.</source>
        <translation>Cancelado: no se añadió nada.</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="135"/>
        <source>This file could not be imported.</source>
        <translation>No se pudo importar este archivo.</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="148"/>
        <source>✓ Added {titles} with its index, ready to ask</source>
        <translation>✓ Añadido {titles} con su índice, listo para preguntar</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="149"/>
        <source>✓ Added {titles} with their index, ready to ask</source>
        <translation>✓ Añadidos {titles} con su índice, listos para preguntar</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="152"/>
        <source>already in your library (left as they are): {titles}</source>
        <translation>ya estaban en tu biblioteca (se dejan como están): {titles}</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="155"/>
        <source>The course pack holds no books.</source>
        <translation>El paquete de curso no contiene libros.</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="164"/>
        <source>Cancelling…</source>
        <translation>Cancelando…</translation>
    </message>
</context>
<context>
    <name>Importing</name>
    <message>
        <location filename="../../desktop/importing.py" line="31"/>
        <source>Books and course packs ({patterns})</source>
        <translation>Libros y paquetes de curso ({patterns})</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="32"/>
        <source>All files (*)</source>
        <translation>Todos los archivos (*)</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="82"/>
        <source>Import books</source>
        <translation>Importar libros</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="95"/>
        <source>Open course pack</source>
        <translation>Abrir paquete de curso</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="106"/>
        <source>Import a book first: a course pack holds books of your library.</source>
        <translation>Primero importa un libro: un paquete de curso contiene libros de tu biblioteca.</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="125"/>
        <source>Added {n} book(s) from the course pack; ask away.</source>
        <translation>Libros añadidos del paquete de curso: {n}; ya puedes preguntar.</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="134"/>
        <source>The sample book is missing from this installation.</source>
        <translation>Falta el libro de ejemplo en esta instalación.</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="143"/>
        <source>You can ask about “{title}” now (keyword search); meaning search is being built.</source>
        <translation>Ya puedes preguntar sobre «{title}» (búsqueda por palabras clave); la búsqueda por significado se está preparando.</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="154"/>
        <source>Imported “{title}”.</source>
        <translation>Importado «{title}».</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="166"/>
        <source>Remove book</source>
        <translation>Quitar libro</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="167"/>
        <source>Remove “{title}” and its index from the library? The original file is not touched.</source>
        <translation>¿Quitar «{title}» y su índice de la biblioteca? El archivo original no se modifica.</translation>
    </message>
</context>
<context>
    <name>LibraryCheck</name>
    <message>
        <location filename="../../desktop/library_check.py" line="50"/>
        <source>Library check</source>
        <translation>Comprobación de la biblioteca</translation>
    </message>
    <message>
        <location filename="../../desktop/library_check.py" line="54"/>
        <source>Your library is healthy.</source>
        <translation>Tu biblioteca está en buen estado.</translation>
    </message>
    <message>
        <location filename="../../desktop/library_check.py" line="55"/>
        <source>Your library was repaired.</source>
        <translation>Tu biblioteca se ha reparado.</translation>
    </message>
    <message>
        <location filename="../../desktop/library_check.py" line="58"/>
        <source>Lantern found problems in your library. Your books are not lost.</source>
        <translation>Lantern encontró problemas en tu biblioteca. Tus libros no se han perdido.</translation>
    </message>
    <message>
        <location filename="../../desktop/library_check.py" line="62"/>
        <source>Repair</source>
        <translation>Reparar</translation>
    </message>
    <message>
        <location filename="../../desktop/library_check.py" line="64"/>
        <source>Later</source>
        <translation>Más tarde</translation>
    </message>
</context>
<context>
    <name>LibraryModel</name>
    <message>
        <location filename="../../desktop/library_view.py" line="52"/>
        <source>Book / chapter / section</source>
        <translation>Libro / capítulo / sección</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="52"/>
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="66"/>
        <source>{n} pages</source>
        <translation>{n} páginas</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="67"/>
        <source>{n} sections</source>
        <translation>{n} secciones</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="68"/>
        <source>written in {language}</source>
        <translation>escrito en {language}</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="71"/>
        <source>{count} · keyword search only</source>
        <translation>{count} · solo búsqueda por palabras</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="72"/>
        <source>Searchable by keyword now; searching by meaning is being built and is used chapter by chapter as it is ready.</source>
        <translation>Ya se puede buscar por palabras; la búsqueda por significado se está construyendo y se usa capítulo a capítulo a medida que está lista.</translation>
    </message>
</context>
<context>
    <name>LibrarySidebar</name>
    <message>
        <location filename="../../desktop/library_view.py" line="134"/>
        <source>Your library is empty</source>
        <translation>Tu biblioteca está vacía</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="136"/>
        <source>Drop a textbook here (PDF, EPUB, Markdown, text or HTML), or import one. Everything stays on this computer.</source>
        <translation>Arrastra aquí un libro de texto (PDF, EPUB, Markdown, texto o HTML) o importa uno. Todo se queda en este equipo.</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="139"/>
        <source>Try the sample book</source>
        <translation>Probar el libro de ejemplo</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="142"/>
        <source>Import a book…</source>
        <translation>Importar un libro…</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="195"/>
        <source>Open in reader</source>
        <translation>Abrir en el lector</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="196"/>
        <source>Ask about this book</source>
        <translation>Preguntar sobre este libro</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="199"/>
        <source>Remove from library…</source>
        <translation>Quitar de la biblioteca…</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/main_window.py" line="104"/>
        <source>Chat</source>
        <translation>Chat</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="105"/>
        <source>Study</source>
        <translation>Estudiar</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="120"/>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="121"/>
        <source>&amp;Import books…</source>
        <translation>&amp;Importar libros…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="123"/>
        <source>&amp;Open course pack…</source>
        <translation>&amp;Abrir paquete de curso…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="124"/>
        <source>&amp;Export course pack…</source>
        <translation>&amp;Exportar paquete de curso…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="125"/>
        <source>Try the &amp;sample book</source>
        <translation>&amp;Probar el libro de ejemplo</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="127"/>
        <source>&amp;Settings…</source>
        <translation>&amp;Configuración…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="129"/>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="130"/>
        <source>&amp;Ask</source>
        <translation>&amp;Preguntar</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="131"/>
        <source>&amp;Question box</source>
        <translation>Campo de &amp;pregunta</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="132"/>
        <source>&amp;Stop answer</source>
        <translation>&amp;Detener respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="135"/>
        <source>&amp;Copy answer</source>
        <translation>&amp;Copiar respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="136"/>
        <source>&amp;New conversation</source>
        <translation>&amp;Nueva conversación</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="138"/>
        <source>&amp;Reader</source>
        <translation>&amp;Lector</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="139"/>
        <source>&amp;Find in book…</source>
        <translation>&amp;Buscar en el libro…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="140"/>
        <source>&amp;Help</source>
        <translation>Ay&amp;uda</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="141"/>
        <source>Check &amp;library…</source>
        <translation>Comprobar &amp;biblioteca…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="142"/>
        <source>&amp;About Lantern</source>
        <translation>&amp;Acerca de Lantern</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="156"/>
        <source>Offline ✓</source>
        <translation>Sin conexión ✓</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="164"/>
        <source>Lantern never uses the network: your books and questions stay here.</source>
        <translation>Lantern nunca usa la red: tus libros y tus preguntas se quedan aquí.</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="174"/>
        <source>Chosen model file: {file}</source>
        <translation>Archivo de modelo elegido: {file}</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="177"/>
        <source> — unavailable, answers quote the book</source>
        <translation> — no disponible, las respuestas citan el libro</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="179"/>
        <source>Model: {engine}</source>
        <translation>Modelo: {engine}</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="263"/>
        <source>Could not find the section “{name}”.</source>
        <translation>No se encontró la sección «{name}».</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="352"/>
        <source>About Lantern</source>
        <translation>Acerca de Lantern</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="353"/>
        <source>&lt;b&gt;Lantern&lt;/b&gt; — an offline tutor for your own textbooks.&lt;br&gt;Answers cite chapter, section and page. Licensed AGPL-3.0-or-later.</source>
        <translation>&lt;b&gt;Lantern&lt;/b&gt; — un tutor sin conexión para tus propios libros de texto.&lt;br&gt;Las respuestas citan capítulo, sección y página. Licencia AGPL-3.0-or-later.</translation>
    </message>
</context>
<context>
    <name>ModelChoice</name>
    <message>
        <location filename="../../desktop/model_choice.py" line="157"/>
        <source>Runs {model}.</source>
        <translation>Usa {model}.</translation>
    </message>
    <message>
        <location filename="../../desktop/model_choice.py" line="159"/>
        <source>The computer has been busy, so the models are not measured yet: Lantern measures them when it is idle and then runs the most correct one that answers in time.</source>
        <translation>El equipo ha estado ocupado, así que los modelos aún no se han medido: Lantern los mide cuando está inactivo y luego usa el más acertado que responde a tiempo.</translation>
    </message>
    <message>
        <location filename="../../desktop/model_choice.py" line="163"/>
        <source>The models are measured on this computer when it is idle (after imports and answers).</source>
        <translation>Los modelos se miden en este equipo cuando está inactivo (después de las importaciones y las respuestas).</translation>
    </message>
    <message>
        <location filename="../../desktop/model_choice.py" line="167"/>
        <source>Runs {model}: it {reason}</source>
        <translation>Usa {model}: {model} {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/model_choice.py" line="169"/>
        <source>Runs {model}: {reason}</source>
        <translation>Usa {model}: {reason}</translation>
    </message>
</context>
<context>
    <name>ReaderWidget</name>
    <message>
        <location filename="../../desktop/reader.py" line="222"/>
        <source>Fit</source>
        <translation>Ajustar</translation>
    </message>
    <message>
        <location filename="../../desktop/reader.py" line="222"/>
        <source>Fit page width</source>
        <translation>Ajustar al ancho de la página</translation>
    </message>
    <message>
        <location filename="../../desktop/reader.py" line="227"/>
        <source>Find</source>
        <translation>Buscar</translation>
    </message>
    <message>
        <location filename="../../desktop/reader.py" line="227"/>
        <source>Find in this book (Ctrl+F)</source>
        <translation>Buscar en este libro (Ctrl+F)</translation>
    </message>
</context>
<context>
    <name>Scope</name>
    <message>
        <location filename="../../desktop/protocols.py" line="44"/>
        <source>All books</source>
        <translation>Todos los libros</translation>
    </message>
    <message>
        <location filename="../../desktop/protocols.py" line="45"/>
        <source>One book</source>
        <translation>Un libro</translation>
    </message>
</context>
<context>
    <name>ScopeBar</name>
    <message>
        <location filename="../../desktop/scope_bar.py" line="58"/>
        <location filename="../../desktop/scope_bar.py" line="141"/>
        <location filename="../../desktop/scope_bar.py" line="162"/>
        <source>All chapters</source>
        <translation>Todos los capítulos</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="58"/>
        <source>Only these chapters</source>
        <translation>Solo estos capítulos</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="63"/>
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="71"/>
        <source>Ask in:</source>
        <translation>Preguntar en:</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="85"/>
        <source>All books</source>
        <translation>Todos los libros</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="162"/>
        <source>Ch. </source>
        <translation>Cap. </translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <location filename="../../desktop/settings.py" line="71"/>
        <source>bundled default</source>
        <translation>el incluido por defecto</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="76"/>
        <source>CPU only</source>
        <translation>solo CPU</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="78"/>
        <source>GPU when present</source>
        <translation>GPU si la hay</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="80"/>
        <source>GPU layers {n}</source>
        <translation>{n} capas en GPU</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="82"/>
        <source>auto threads</source>
        <translation>hilos automáticos</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="84"/>
        <source>1 thread</source>
        <translation>1 hilo</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="86"/>
        <source>{n} threads</source>
        <translation>{n} hilos</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="110"/>
        <source>Best — the most correct model, however slow</source>
        <translation>Máxima calidad — el modelo más acertado, aunque sea lento</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="111"/>
        <source>Balanced — the most correct model that answers in time here</source>
        <translation>Equilibrio — el modelo más acertado que responde a tiempo en este equipo</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="112"/>
        <source>Fastest — the quickest answers</source>
        <translation>Máxima rapidez — las respuestas más rápidas</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="119"/>
        <source>The model file {path} does not exist.</source>
        <translation>El archivo del modelo {path} no existe.</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="124"/>
        <source>The model file {path} cannot be read: {reason}.</source>
        <translation>No se puede leer el archivo del modelo {path}: {reason}.</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="127"/>
        <source>{name} is not a GGUF model file (Lantern runs llama.cpp models saved as .gguf).</source>
        <translation>{name} no es un archivo de modelo GGUF (Lantern ejecuta modelos de llama.cpp guardados como .gguf).</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop/settings.py" line="136"/>
        <source>Lantern settings</source>
        <translation>Configuración de Lantern</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="149"/>
        <source>Chosen for this computer (bundled models)</source>
        <translation>Elegido para este equipo (modelos incluidos)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="150"/>
        <source>A .gguf file:</source>
        <translation>Un archivo .gguf:</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="154"/>
        <source>/path/to/model.gguf</source>
        <translation>/ruta/al/modelo.gguf</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="155"/>
        <location filename="../../desktop/settings.py" line="165"/>
        <source>Choose…</source>
        <translation>Elegir…</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="159"/>
        <source>automatic</source>
        <translation>automático</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="161"/>
        <source>all layers (GPU when present)</source>
        <translation>todas las capas (GPU si la hay)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="162"/>
        <source>0 = CPU only; -1 = every layer on the GPU when this build and computer have one (the CPU otherwise)</source>
        <translation>0 = solo CPU; -1 = todas las capas en la GPU cuando esta versión y este equipo tienen una (si no, la CPU)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="164"/>
        <source>default folder</source>
        <translation>carpeta predeterminada</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="167"/>
        <source>Explain beyond the book (such answers are labelled)</source>
        <translation>Explicar más allá del libro (esas respuestas se señalan)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="170"/>
        <source>Answer quality:</source>
        <translation>Calidad de las respuestas:</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="172"/>
        <source>Model:</source>
        <translation>Modelo:</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="174"/>
        <source>Threads:</source>
        <translation>Hilos:</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="175"/>
        <source>GPU layers:</source>
        <translation>Capas en GPU:</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="176"/>
        <source>Library folder:</source>
        <translation>Carpeta de la biblioteca:</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="177"/>
        <source>A new library folder is used the next time Lantern starts.</source>
        <translation>Una nueva carpeta de biblioteca se usará la próxima vez que se inicie Lantern.</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="204"/>
        <source>Choose a model</source>
        <translation>Elegir un modelo</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="205"/>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modelos GGUF (*.gguf);;Todos los archivos (*)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="211"/>
        <source>Choose the library folder</source>
        <translation>Elegir la carpeta de la biblioteca</translation>
    </message>
</context>
<context>
    <name>SourceCards</name>
    <message>
        <location filename="../../desktop/transcript.py" line="233"/>
        <location filename="../../desktop/transcript.py" line="245"/>
        <source>Sources</source>
        <translation>Fuentes</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="245"/>
        <source>Sources — none yet</source>
        <translation>Fuentes — aún ninguna</translation>
    </message>
</context>
<context>
    <name>Study</name>
    <message>
        <location filename="../../desktop/study_tabs.py" line="36"/>
        <source>Your answer</source>
        <translation>Tu respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="38"/>
        <source>Check my answer</source>
        <translation>Comprobar mi respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="39"/>
        <source>More like this</source>
        <translation>Más como esta</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="40"/>
        <source>Go to the next chapter</source>
        <translation>Ir al siguiente capítulo</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="71"/>
        <source>Show answer</source>
        <translation>Mostrar respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="72"/>
        <source>Open its page</source>
        <translation>Abrir su página</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="74"/>
        <source>Review all of this chapter&apos;s cards</source>
        <translation>Repasar todas las tarjetas de este capítulo</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="76"/>
        <source>Again</source>
        <translation>Otra vez</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="76"/>
        <source>Hard</source>
        <translation>Difícil</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="77"/>
        <source>Good</source>
        <translation>Bien</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="77"/>
        <source>Easy</source>
        <translation>Fácil</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="79"/>
        <source>Export to Anki…</source>
        <translation>Exportar a Anki…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="109"/>
        <source>Make a quiz</source>
        <translation>Crear un cuestionario</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="110"/>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="112"/>
        <source>Take the saved quiz</source>
        <translation>Hacer el cuestionario guardado</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="114"/>
        <source>The quiz last made for this chapter, here or by a teacher (a course pack)</source>
        <translation>El último cuestionario creado para este capítulo, aquí o por un docente (un paquete de curso)</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="120"/>
        <source>Make a quiz on this chapter: every answer is checked against the book.</source>
        <translation>Crea un cuestionario sobre este capítulo: cada respuesta se comprueba con el libro.</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="126"/>
        <source>Type the missing term, then press Enter</source>
        <translation>Escribe el término que falta y pulsa Intro</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="128"/>
        <source>Check</source>
        <translation>Comprobar</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="129"/>
        <source>Next question</source>
        <translation>Siguiente pregunta</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="135"/>
        <source>Questions</source>
        <translation>Preguntas</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="25"/>
        <source>Reading chapter {chapter}…</source>
        <translation>Leyendo el capítulo {chapter}…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="32"/>
        <source>the model</source>
        <translation>el modelo</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="33"/>
        <source>writing questions with {model}</source>
        <translation>escribiendo preguntas con {model}</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="67"/>
        <source>Take the saved quiz ({n})</source>
        <translation>Hacer el cuestionario guardado ({n})</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="75"/>
        <source>The quiz saved for this chapter: {n} questions, written by {generator}.</source>
        <translation>El cuestionario guardado para este capítulo: {n} preguntas, escritas por {generator}.</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="76"/>
        <source>The quiz saved for this chapter: {n} questions.</source>
        <translation>El cuestionario guardado para este capítulo: {n} preguntas.</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="84"/>
        <source>{stage} — {done} of {total} ready…</source>
        <translation>{stage} — {done} de {total} listas…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="86"/>
        <source>{stage}…</source>
        <translation>{stage}…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="90"/>
        <source>No quiz: {error}</source>
        <translation>No hay cuestionario: {error}</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="115"/>
        <source>Question {n} is being written from the book…</source>
        <translation>La pregunta {n} se está escribiendo a partir del libro…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="117"/>
        <source>The first question is being written from the book…</source>
        <translation>La primera pregunta se está escribiendo a partir del libro…</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="48"/>
        <source>Chapter {number}: {title}</source>
        <translation>Capítulo {number}: {title}</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="83"/>
        <source>True or false</source>
        <translation>Verdadero o falso</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="84"/>
        <source>Code</source>
        <translation>Código</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="84"/>
        <source>Fill in the blank</source>
        <translation>Completa el espacio</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="85"/>
        <source>Multiple choice</source>
        <translation>Opción múltiple</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="95"/>
        <source>Not quite: the answer is {answer}.</source>
        <translation>No exactamente: la respuesta es {answer}.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="96"/>
        <source>Right!</source>
        <translation>¡Correcto!</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="106"/>
        <source>Your score: {right} of {total}</source>
        <translation>Tu puntuación: {right} de {total}</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="108"/>
        <source>({count} not answered)</source>
        <translation>({count} sin responder)</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="111"/>
        <source>All right.</source>
        <translation>Todo correcto.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="112"/>
        <source>The answer:</source>
        <translation>La respuesta:</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="99"/>
        <location filename="../../core/study/render.py" line="112"/>
        <source>The book:</source>
        <translation>El libro:</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="51"/>
        <source>You should be able to</source>
        <translation>Deberías ser capaz de</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="63"/>
        <source>Try this:</source>
        <translation>Prueba esto:</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="66"/>
        <source>Summary</source>
        <translation>Resumen</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="71"/>
        <source>Key terms</source>
        <translation>Términos clave</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="89"/>
        <source>type the missing term</source>
        <translation>escribe el término que falta</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="115"/>
        <source>To review:</source>
        <translation>Para repasar:</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="123"/>
        <source>Try a longer chapter, or read this one in the Guide tab.</source>
        <translation>Prueba con un capítulo más largo, o lee este en la pestaña Guía.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="124"/>
        <source>No questions.</source>
        <translation>No hay preguntas.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="126"/>
        <source>multiple choice</source>
        <translation>de opción múltiple</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="127"/>
        <source>true/false</source>
        <translation>de verdadero/falso</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="128"/>
        <source>code</source>
        <translation>de código</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="128"/>
        <source>fill in the blank</source>
        <translation>de completar</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="130"/>
        <source>{n} question</source>
        <translation>{n} pregunta</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="131"/>
        <source>{n} questions</source>
        <translation>{n} preguntas</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="132"/>
        <source>{count} ({kinds}), every answer checked against the book</source>
        <translation>{count} ({kinds}), cada respuesta comprobada con el libro</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="134"/>
        <source>, in {seconds} s</source>
        <translation>, en {seconds} s</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="146"/>
        <source>made from the book&apos;s text; the answer is the book&apos;s</source>
        <translation>hecho a partir del texto del libro; la respuesta es la del libro</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="147"/>
        <source>the book&apos;s exercise (the book prints its answer)</source>
        <translation>ejercicio del libro (el libro trae su respuesta)</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="148"/>
        <source>the book&apos;s exercise</source>
        <translation>ejercicio del libro</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="163"/>
        <source>Correct</source>
        <translation>Correcto</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="163"/>
        <source>Partly</source>
        <translation>En parte</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="164"/>
        <source>Incorrect</source>
        <translation>Incorrecto</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="164"/>
        <source>Unchecked</source>
        <translation>Sin comprobar</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="172"/>
        <source>No practice in chapter {chapter}.</source>
        <translation>No hay práctica en el capítulo {chapter}.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="173"/>
        <source>{n} item</source>
        <translation>{n} ejercicio</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="173"/>
        <source>{n} items</source>
        <translation>{n} ejercicios</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="175"/>
        <source>Chapter {chapter} has no exercises, so here is {items} made from its text; every answer is the book&apos;s own.</source>
        <translation>El capítulo {chapter} no tiene ejercicios, así que aquí tienes {items} hecho a partir de su texto; cada respuesta es la del libro.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="177"/>
        <source>Chapter {chapter} has no exercises, so here are {items} made from its text; every answer is the book&apos;s own.</source>
        <translation>El capítulo {chapter} no tiene ejercicios, así que aquí tienes {items} hechos a partir de su texto; cada respuesta es la del libro.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="179"/>
        <source>{n} exercise from the book</source>
        <translation>{n} ejercicio del libro</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="180"/>
        <source>{n} exercises from the book</source>
        <translation>{n} ejercicios del libro</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="182"/>
        <source>{items} made from its text, answers from the book</source>
        <translation>{items} hechos a partir de su texto, con respuestas del libro</translation>
    </message>
</context>
<context>
    <name>StudyPanel</name>
    <message>
        <location filename="../../desktop/study.py" line="69"/>
        <source>Book</source>
        <translation>Libro</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="71"/>
        <source>Chapter</source>
        <translation>Capítulo</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="74"/>
        <source>Practice</source>
        <translation>Práctica</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="75"/>
        <source>Cards</source>
        <translation>Tarjetas</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="76"/>
        <source>Quiz</source>
        <translation>Cuestionario</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="77"/>
        <source>Guide</source>
        <translation>Guía</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="159"/>
        <source>, quiz {score}</source>
        <translation>, cuestionario {score}</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="161"/>
        <source>practised {done}/{exercises}{quiz}, cards due {due}/{cards}, asked {asked}</source>
        <translation>practicados {done}/{exercises}{quiz}, tarjetas pendientes {due}/{cards}, preguntas hechas {asked}</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="215"/>
        <source>Reading chapter {chapter} for exercises and practice…</source>
        <translation>Buscando ejercicios y práctica en el capítulo {chapter}…</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="228"/>
        <source>It has no exercises, and {size}: too little to practise on.</source>
        <translation>No tiene ejercicios, y {size}: demasiado poco para practicar.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="240"/>
        <source>Nothing to practise in this chapter. Try the next chapter, or ask the tutor about it in the Chat tab.</source>
        <translation>No hay nada que practicar en este capítulo. Prueba el siguiente capítulo o pregúntale al tutor sobre él en la pestaña Chat.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="261"/>
        <source>Type your answer first, then check it against the book.</source>
        <translation>Escribe primero tu respuesta y luego compruébala con el libro.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="264"/>
        <source>Checking your answer against the book…</source>
        <translation>Comprobando tu respuesta con el libro…</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="293"/>
        <source>Practice like {label}; change the chapter to see all again.</source>
        <translation>Ejercicios como {label}; cambia de capítulo para volver a verlos todos.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="301"/>
        <source>Making cards from chapter {chapter}…</source>
        <translation>Creando tarjetas del capítulo {chapter}…</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="314"/>
        <source>1 card</source>
        <translation>1 tarjeta</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="314"/>
        <source>{n} cards</source>
        <translation>{n} tarjetas</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="327"/>
        <source>{cards} to review ({total} in this chapter); the back of each is the book&apos;s own words, “Open its page” shows where.</source>
        <translation>Para repasar: {cards} ({total} en este capítulo); el reverso de cada una son las palabras del propio libro, «Abrir su página» muestra dónde.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="329"/>
        <source>{cards} due ({total} in this chapter); the back of each is the book&apos;s own words, “Open its page” shows where.</source>
        <translation>Pendientes: {cards} ({total} en este capítulo); el reverso de cada una son las palabras del propio libro, «Abrir su página» muestra dónde.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="335"/>
        <source>No cards due: all {cards} of this chapter are scheduled (next on {date}).</source>
        <translation>Ninguna tarjeta pendiente: todas las de este capítulo ({cards}) están programadas (la próxima, el {date}).</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="336"/>
        <source>No cards due: all {cards} of this chapter are scheduled.</source>
        <translation>Ninguna tarjeta pendiente: todas las de este capítulo ({cards}) están programadas.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="338"/>
        <source>Nothing to review now.</source>
        <translation>Nada que repasar por ahora.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="340"/>
        <source>No cards: this chapter has no definitions, key terms or code examples to make cards from. Try the next chapter or the Guide.</source>
        <translation>No hay tarjetas: este capítulo no tiene definiciones, términos clave ni ejemplos de código con los que crearlas. Prueba el siguiente capítulo o la Guía.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="372"/>
        <source>Export cards</source>
        <translation>Exportar tarjetas</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="373"/>
        <source>Anki package (*.apkg);;CSV (*.csv)</source>
        <translation>Paquete de Anki (*.apkg);;CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="384"/>
        <source>Exported {cards} to {path} (book, chapter, section and page as fields and tags)</source>
        <translation>Exportación terminada: {cards} en {path} (libro, capítulo, sección y página como campos y etiquetas)</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="394"/>
        <source>This book has no numbered chapters.</source>
        <translation>Este libro no tiene capítulos numerados.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="396"/>
        <source>Choosing the key sentences of chapter {chapter}…</source>
        <translation>Eligiendo las frases clave del capítulo {chapter}…</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="406"/>
        <source>This chapter has no sentences that read well on their own; open it in the reader instead.</source>
        <translation>Este capítulo no tiene frases que se entiendan por sí solas; mejor ábrelo en el lector.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="409"/>
        <source>{sections}, {sentences} and {terms} — all in the book&apos;s own words; click a page to read it, “Try this” to practise.</source>
        <translation>{sections}, {sentences} y {terms} — todo con las palabras del propio libro; haz clic en una página para leerla y en «Prueba esto» para practicar.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="411"/>
        <source>1 section</source>
        <translation>1 sección</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="411"/>
        <source>{n} sections</source>
        <translation>{n} secciones</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="412"/>
        <source>1 key sentence</source>
        <translation>1 frase clave</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="412"/>
        <source>{n} key sentences</source>
        <translation>{n} frases clave</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="413"/>
        <source>1 key term</source>
        <translation>1 término clave</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="413"/>
        <source>{n} key terms</source>
        <translation>{n} términos clave</translation>
    </message>
</context>
<context>
    <name>Transcript</name>
    <message>
        <location filename="../../desktop/transcript.py" line="57"/>
        <source>Source {n} was not provided</source>
        <translation>No se dio la fuente {n}</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="71"/>
        <source>English</source>
        <translation>inglés</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="72"/>
        <source>Spanish</source>
        <translation>español</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="72"/>
        <source>French</source>
        <translation>francés</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="73"/>
        <source>German</source>
        <translation>alemán</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="73"/>
        <source>Portuguese</source>
        <translation>portugués</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="74"/>
        <source>Chinese</source>
        <translation>chino</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="93"/>
        <source>Your book cannot say what your own program does</source>
        <translation>Tu libro no puede decir qué hace tu propio programa</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="95"/>
        <source>No source supports this sentence</source>
        <translation>Ninguna fuente respalda esta frase</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="112"/>
        <source>Translating the quotes…</source>
        <translation>Traduciendo las citas…</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="115"/>
        <source>Show the quotes in {language}</source>
        <translation>Mostrar las citas en {language}</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="117"/>
        <source>The quotes in {language} (translated; the book&apos;s own words are on the chips):</source>
        <translation>Las citas en {language} (traducidas; las palabras del libro están en las etiquetas):</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="128"/>
        <source>You:</source>
        <translation>Tú:</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="128"/>
        <source>From the book:</source>
        <translation>Del libro:</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="129"/>
        <source>Searching your books…</source>
        <translation>Buscando en tus libros…</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="141"/>
        <source>Lantern:</source>
        <translation>Lantern:</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="146"/>
        <source>Nearest sections:</source>
        <translation>Secciones más cercanas:</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="150"/>
        <source>Stopped.</source>
        <translation>Detenido.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="152"/>
        <source>The answer failed.</source>
        <translation>La respuesta falló.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="157"/>
        <source>Quoted from your book (no chat model is loaded).</source>
        <translation>Citado de tu libro (no hay ningún modelo de chat cargado).</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="159"/>
        <source>Includes explanation beyond the book.</source>
        <translation>Incluye explicaciones que van más allá del libro.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="161"/>
        <source>Translated into {language} from the {source} answer checked against your book.</source>
        <translation>Traducido al {language} a partir de la respuesta en {source} comprobada con tu libro.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="164"/>
        <source>In {language}:</source>
        <translation>En {language}:</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="168"/>
        <source>Checking each sentence against your book…</source>
        <translation>Comprobando cada frase con tu libro…</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="171"/>
        <source>Found by keyword search only: {titles} is still being indexed for meaning search.</source>
        <translation>Encontrado solo por palabras: {titles} aún se está indexando para la búsqueda por significado.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="173"/>
        <source>Found by keyword search only: {titles} are still being indexed for meaning search.</source>
        <translation>Encontrado solo por palabras: {titles} aún se están indexando para la búsqueda por significado.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="184"/>
        <source>Ask a question about your books. Answers cite the chapter, section and page; click a citation to open the page.</source>
        <translation>Haz una pregunta sobre tus libros. Las respuestas citan el capítulo, la sección y la página; haz clic en una cita para abrir la página.</translation>
    </message>
</context>
</TS>
