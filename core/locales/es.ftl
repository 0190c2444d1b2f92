# Core messages, Spanish: the titles plone.restapi answers translated (types, workflow states
# and transitions), as Plone's Spanish translation has them. See en.ftl for the naming rules;
# what is missing here is answered in English.
datetime-format = %d/%m/%Y %H:%M UTC
date-format = %d/%m/%Y
yes = Sí
no = No

type-Plone-Site = Sitio
type-Folder = Carpeta
type-Document = Página
type-File = Archivo
type-Image = Imagen
type-Link = Enlace
type-Collection = Colección
type-Event = Evento
type-News-Item = Noticia

state-private = Privado
state-pending = Pendiente de revisión
state-published = Publicado
transition-submit = Enviar para publicación
transition-publish = Publicar
transition-retract = Retirar
transition-reject = Rechazar
