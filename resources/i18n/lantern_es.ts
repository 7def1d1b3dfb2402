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
        <location filename="../../desktop/chat.py" line="221"/>
        <source>Delete conversation</source>
        <translation>Eliminar conversación</translation>
    </message>
</context>
<context>
    <name>LibraryModel</name>
    <message>
        <location filename="../../desktop/library_view.py" line="51"/>
        <source>Book / chapter / section</source>
        <translation>Libro / capítulo / sección</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="51"/>
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
</context>
<context>
    <name>LibrarySidebar</name>
    <message>
        <location filename="../../desktop/library_view.py" line="131"/>
        <source>Your library is empty</source>
        <translation>Tu biblioteca está vacía</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="133"/>
        <source>Drop a textbook here (PDF, EPUB, Markdown, text or HTML), or import one. Everything stays on this computer.</source>
        <translation>Arrastra aquí un libro de texto (PDF, EPUB, Markdown, texto o HTML) o importa uno. Todo se queda en este equipo.</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="136"/>
        <source>Try the sample book</source>
        <translation>Probar el libro de ejemplo</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="139"/>
        <source>Import a book…</source>
        <translation>Importar un libro…</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="192"/>
        <source>Open in reader</source>
        <translation>Abrir en el lector</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="193"/>
        <source>Ask about this book</source>
        <translation>Preguntar sobre este libro</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="196"/>
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
    <name>SourceCards</name>
    <message>
        <location filename="../../desktop/transcript.py" line="224"/>
        <location filename="../../desktop/transcript.py" line="236"/>
        <source>Sources</source>
        <translation>Fuentes</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="236"/>
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
        <location filename="../../desktop/study_tabs.py" line="77"/>
        <source>Export to Anki…</source>
        <translation>Exportar a Anki…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="107"/>
        <source>Make a quiz</source>
        <translation>Crear un cuestionario</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="108"/>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="110"/>
        <source>Take the saved quiz</source>
        <translation>Hacer el cuestionario guardado</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="112"/>
        <source>The quiz last made for this chapter, here or by a teacher (a course pack)</source>
        <translation>El último cuestionario creado para este capítulo, aquí o por un docente (un paquete de curso)</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="118"/>
        <source>Make a quiz on this chapter: every answer is checked against the book.</source>
        <translation>Crea un cuestionario sobre este capítulo: cada respuesta se comprueba con el libro.</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="123"/>
        <source>Check</source>
        <translation>Comprobar</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="124"/>
        <source>Next question</source>
        <translation>Siguiente pregunta</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="130"/>
        <source>Questions</source>
        <translation>Preguntas</translation>
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
</context>
<context>
    <name>Transcript</name>
    <message>
        <location filename="../../desktop/transcript.py" line="70"/>
        <source>English</source>
        <translation>inglés</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="71"/>
        <source>Spanish</source>
        <translation>español</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="71"/>
        <source>French</source>
        <translation>francés</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="72"/>
        <source>German</source>
        <translation>alemán</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="72"/>
        <source>Portuguese</source>
        <translation>portugués</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="73"/>
        <source>Chinese</source>
        <translation>chino</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="92"/>
        <source>Your book cannot say what your own program does</source>
        <translation>Tu libro no puede decir qué hace tu propio programa</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="94"/>
        <source>No source supports this sentence</source>
        <translation>Ninguna fuente respalda esta frase</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="111"/>
        <source>Translating the quotes…</source>
        <translation>Traduciendo las citas…</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="114"/>
        <source>Show the quotes in {language}</source>
        <translation>Mostrar las citas en {language}</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="116"/>
        <source>The quotes in {language} (translated; the book&apos;s own words are on the chips):</source>
        <translation>Las citas en {language} (traducidas; las palabras del libro están en las etiquetas):</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="127"/>
        <source>You:</source>
        <translation>Tú:</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="127"/>
        <source>From the book:</source>
        <translation>Del libro:</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="128"/>
        <source>Searching your books…</source>
        <translation>Buscando en tus libros…</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="137"/>
        <source>Lantern:</source>
        <translation>Lantern:</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="142"/>
        <source>Nearest sections:</source>
        <translation>Secciones más cercanas:</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="146"/>
        <source>Stopped.</source>
        <translation>Detenido.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="148"/>
        <source>The answer failed.</source>
        <translation>La respuesta falló.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="153"/>
        <source>Quoted from your book (no chat model is loaded).</source>
        <translation>Citado de tu libro (no hay ningún modelo de chat cargado).</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="155"/>
        <source>Includes explanation beyond the book.</source>
        <translation>Incluye explicaciones que van más allá del libro.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="157"/>
        <source>Translated into {language} from the {source} answer checked against your book.</source>
        <translation>Traducido al {language} a partir de la respuesta en {source} comprobada con tu libro.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="160"/>
        <source>In {language}:</source>
        <translation>En {language}:</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="175"/>
        <source>Ask a question about your books. Answers cite the chapter, section and page; click a citation to open the page.</source>
        <translation>Haz una pregunta sobre tus libros. Las respuestas citan el capítulo, la sección y la página; haz clic en una cita para abrir la página.</translation>
    </message>
</context>
</TS>
